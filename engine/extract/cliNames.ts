/**
 * Programs whose invocation, written in inline code, a shell block or after a `$ ` prompt, makes
 * the whole line a command entity (`make lint`, `docker compose up -d`).
 */
export const CLI_NAMES: ReadonlySet<string> = new Set(
  `
  npm npx pnpm pnpx yarn bun bunx deno node tsx ts-node tsc esbuild vite webpack eslint prettier jest
  vitest mocha playwright cypress python python3 pip pip3 pipx poetry uv pytest mypy ruff black flake8
  cargo rustup rustc go gofmt make cmake ninja bazel gradle ./gradlew mvn java javac kotlin dotnet
  ruby gem bundle rails rake php composer mix elixir swift xcodebuild flutter dart git gh hub docker
  docker-compose podman kubectl helm terraform pulumi ansible ansible-playbook aws gcloud az vercel
  netlify heroku fly wrangler firebase supabase brew apt apt-get dnf yum pacman apk snap curl wget ssh
  scp rsync psql mysql sqlite3 redis-cli mongosh code cd ls cat rm cp mv mkdir chmod chown grep rg find
  sed awk echo export source tar unzip zip jq tmux sudo env nvm volta corepack turbo nx lerna changeset
  `
    .split(/\s+/)
    .filter((w) => w.length > 0),
);
