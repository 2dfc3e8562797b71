/**
 * Word lists that tell a path from prose. A bare `name.ext` counts as a file only when `ext` is a
 * file extension people actually write; anything with a slash but no extension needs a known
 * project or file-system root so that "and/or" and "/api/users" stay prose.
 */

export const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx markdown txt rst adoc ' +
    'py pyi pyx ipynb rb rs go java kt kts scala groovy gradle cs fs fsx vb c h cc cpp cxx hpp hh hxx ' +
    'm mm swift dart lua pl pm php r jl ex exs erl hrl hs elm clj cljs edn ml mli zig nim sol ' +
    'vue svelte astro html htm css scss sass less styl xml xsd xsl svg yaml yml toml ini cfg conf ' +
    'properties lock lockb sql prisma graphql gql proto thrift avsc sh bash zsh fish ps1 psm1 bat cmd ' +
    'tf tfvars hcl nix dockerfile mk cmake bzl log csv tsv parquet png jpg jpeg gif webp ico bmp pdf ' +
    'mp4 mov mp3 wav zip tar gz tgz bz2 xz 7z jar war whl wasm so dll dylib exe vsix env tmpl j2 snap'
  ).split(' '),
);

/** Files people name without an extension. */
export const EXTENSIONLESS_FILES: ReadonlySet<string> = new Set([
  'Makefile',
  'Dockerfile',
  'Containerfile',
  'Jenkinsfile',
  'Gemfile',
  'Procfile',
  'Rakefile',
  'Vagrantfile',
  'Brewfile',
  'Podfile',
  'Justfile',
  'Caddyfile',
  'CODEOWNERS',
  'LICENSE',
  'hosts',
  'passwd',
]);

/** First segments of relative paths that are always a project folder: `src/auth` is a path. */
export const PROJECT_ROOT_DIRS: ReadonlySet<string> = new Set(
  (
    'src lib libs test tests spec specs e2e packages pkg cmd internal docs scripts dist node_modules ' +
    'fixtures vendor migrations webview .github .vscode .ci'
  ).split(' '),
);

/**
 * First segments that are project folders but also English words: `client/server` is prose, so
 * these count only with a second separator (`app/api/routes`) or a trailing slash.
 */
export const WEAK_ROOT_DIRS: ReadonlySet<string> = new Set(
  (
    'app apps bin build out public static assets components pages routes api server client config ' +
    'configs tools examples include engine extension db infra deploy charts templates styles types ' +
    'utils hooks services models controllers views doc'
  ).split(' '),
);

/** First segments of absolute paths on Unix-like systems and macOS. */
export const FILESYSTEM_ROOTS: ReadonlySet<string> = new Set(
  'home usr etc var tmp opt bin sbin lib mnt srv root proc dev run Users Library Applications Volumes private work workspace workspaces'.split(
    ' ',
  ),
);

/**
 * Receivers of method calls that would otherwise read as file names: `console.log`, `res.json`,
 * `mutex.lock`. A bare `stem.ext` with one of these stems is left to the symbol matcher.
 */
export const CALL_RECEIVERS: ReadonlySet<string> = new Set(
  'console res req response request ctx context this self logger log window document process json math object array promise mutex lock reply util utils str string data result'.split(
    ' ',
  ),
);

const DOTFILE_RE =
  /^\.(?:env(?:\.[\w-]+)?|[\w-]+rc|[\w-]*ignore|gitattributes|gitmodules|editorconfig|nvmrc|node-version|python-version|tool-versions)$/;

/** `.env`, `.env.local`, `.gitignore`, `.npmrc`, `.eslintrc` ... */
export function isConfigDotfile(segment: string): boolean {
  return DOTFILE_RE.test(segment);
}
