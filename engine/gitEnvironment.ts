/**
 * Only what git needs to find itself and its config: simple-git refuses an environment carrying
 * variables that can redirect git (and nothing here needs them). Its own module, so that code
 * running git (capture's commit links) does not load the drift checker and simple-git with it.
 */
export function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = { LC_ALL: 'C.UTF-8' };
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'USERPROFILE', 'XDG_CONFIG_HOME']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
