import type { EntityType, ExtractedEntity } from './entityTypes';
import type { Mention } from './mention';
import { TYPE_RANK } from './mention';
import { salience } from './salience';

const POSSESSIVE_RE = /['’]s$/;

/**
 * Merges mentions with one key into one entity (mentions must be in text order). Its type is the
 * one most mentions have (ties to the higher rank), with 'person' winning over 'name' once any
 * mention had a person cue; its name is the first preferred display form of that type.
 */
export function mergeMentions(text: string, mentions: readonly Mention[]): ExtractedEntity[] {
  const groups = new Map<string, Mention[]>();
  for (const mention of mentions) {
    const group = groups.get(mention.key);
    if (group === undefined) groups.set(mention.key, [mention]);
    else group.push(mention);
  }
  const entities: ExtractedEntity[] = [];
  for (const [key, group] of groups) {
    const first = group[0];
    if (first === undefined) continue;
    const type = chooseType(group);
    const display = group.length === 1 ? first : displayMention(group, type);
    // A person is named without the possessive even if only "Anna's" was seen; a name keeps it,
    // since for "Alzheimer's" the possessive is part of the name.
    const name = type === 'person' ? display.name.replace(POSSESSIVE_RE, '') : display.name;
    entities.push({
      name,
      key,
      type,
      weight: salience(type, group.length, first.start, text.length),
      spans: group.map((m): [number, number] => [m.start, m.end]),
      aliases: aliasesOf(text, group, name),
    });
  }
  return entities.sort((a, b) => b.weight - a.weight || (a.spans[0]?.[0] ?? 0) - (b.spans[0]?.[0] ?? 0));
}

/** Every other surface form and display name seen, in text order. */
function aliasesOf(text: string, group: readonly Mention[], name: string): string[] {
  if (group.length === 1) {
    const only = group[0] as Mention;
    const surface = text.slice(only.start, only.end);
    const aliases = surface === name ? [] : [surface];
    if (only.name !== name && only.name !== surface) aliases.push(only.name);
    return aliases;
  }
  const seen = new Set([name]);
  for (const mention of group) {
    seen.add(text.slice(mention.start, mention.end));
    seen.add(mention.name);
  }
  seen.delete(name);
  return [...seen];
}

function displayMention(group: readonly Mention[], type: EntityType): Mention {
  const ofType = group.filter((m) => m.type === type || (type === 'person' && m.type === 'name'));
  return ofType.find((m) => m.preferred) ?? ofType[0] ?? (group[0] as Mention);
}

function chooseType(group: readonly Mention[]): EntityType {
  if (group.length === 1) return (group[0] as Mention).type;
  const counts = new Map<EntityType, number>();
  const hasPerson = group.some((m) => m.type === 'person');
  for (const mention of group) {
    const type = hasPerson && mention.type === 'name' ? 'person' : mention.type;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  let best: EntityType = 'name';
  let bestCount = 0;
  for (const [type, count] of counts) {
    if (count > bestCount || (count === bestCount && TYPE_RANK[type] > TYPE_RANK[best])) {
      best = type;
      bestCount = count;
    }
  }
  return best;
}
