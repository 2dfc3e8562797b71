import type { GroupBy } from '../memoryGroups';
import { KIND_ICONS, LAYER_ICONS } from '../memoryPresentation';

/** A group row's codicon: the kind's or layer's own icon, a file, or a calendar day. */
export function groupIcon(by: GroupBy, key: string): string {
  switch (by) {
    case 'kind':
      return KIND_ICONS[key] ?? 'circle-outline';
    case 'file':
      return key === '' ? 'circle-outline' : 'file';
    case 'day':
      return 'calendar';
    case 'layer':
      return LAYER_ICONS[key] ?? 'folder';
  }
}
