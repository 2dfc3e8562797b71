import type { TokenPattern } from './secretCandidate';

/** Bounded on both sides by a character a token of this alphabet cannot hold (nor a file name's dot before it). */
const token = (body: string, flags = 'g', alphabet = 'A-Za-z0-9_-'): RegExp =>
  new RegExp(`(?<![.${alphabet}])(?:${body})(?![${alphabet}])`, flags);
const BASE64 = 'A-Za-z0-9+/=_-';

/**
 * Tokens of services whose issuers give them a fixed prefix or shape (the shapes gitleaks checks,
 * cmd/generate/config/rules, for the services A to M: the rules N to Z are kept out, to measure
 * these patterns on what they were not written from). Each is anchored on a boundary with bounded
 * repeats, so it runs in linear time; a hint (case-sensitive: all hints are tried in one pass,
 * secretPatterns.ts) keeps it from running on text that cannot hold it.
 */
export const PROVIDER_PATTERNS: readonly TokenPattern[] = [
  {
    kind: '1password-token',
    hint: 'ops_eyJ',
    re: token('ops_eyJ[A-Za-z0-9+/]{250,8192}={0,3}', 'g', BASE64),
  },
  {
    kind: '1password-secret-key',
    hint: /A3-[A-Z0-9]{6}-/,
    re: token('A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}'),
  },
  { kind: 'adobe-client-secret', hint: 'p8e-', re: token('p8e-[A-Za-z0-9]{32}') },
  {
    kind: 'age-secret-key',
    hint: 'AGE-SECRET-KEY-1',
    re: token('AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'),
  },
  { kind: 'airtable-token', hint: /pat[A-Za-z0-9]{14}\./, re: token('pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}') },
  { kind: 'alibaba-access-key', hint: 'LTAI', re: token('LTAI[A-Za-z0-9]{20}') },
  { kind: 'aws-bedrock-key', hint: 'ABSK', re: token('ABSK[A-Za-z0-9+/]{109,269}={0,2}', 'g', BASE64) },
  {
    kind: 'aws-bedrock-key',
    hint: 'bedrock-api-key-',
    re: token('bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]{0,4096}', 'g', BASE64),
  },
  { kind: 'clojars-token', hint: /CLOJARS_|clojars_/, re: token('CLOJARS_[a-z0-9]{60}', 'gi') },
  { kind: 'cloudflare-origin-ca-key', hint: 'v1.0-', re: token('v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}') },
  { kind: 'databricks-token', hint: /dapi[a-f0-9]{8}/, re: token('dapi[a-f0-9]{32}(?:-\\d)?') },
  {
    kind: 'defined-networking-token',
    hint: 'dnkey-',
    re: token('dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}', 'g', '\\w=-'),
  },
  { kind: 'digitalocean-token', hint: /do[opr]_v1_/, re: token('do[opr]_v1_[a-f0-9]{64}') },
  { kind: 'doppler-token', hint: /dp\.pt\.|DP\.PT\./, re: token('dp\\.pt\\.[a-z0-9]{43}', 'gi') },
  { kind: 'duffel-token', hint: 'duffel_', re: token('duffel_(?:test|live)_[a-z0-9_=-]{43}', 'gi', '\\w=-') },
  { kind: 'dynatrace-token', hint: 'dt0c01.', re: token('dt0c01\\.[a-z0-9]{24}\\.[a-z0-9]{64}', 'gi') },
  { kind: 'easypost-token', hint: /EZ[AT]K/, re: token('EZ[AT]K[A-Za-z0-9]{54}') },
  { kind: 'facebook-token', hint: /EAA[MC]/, re: token('EAA[MC][A-Za-z0-9]{100,1024}') },
  // An app's access token: its id, a pipe (or `%7C` in a URL), its secret.
  { kind: 'facebook-token', hint: /\d{15}/, re: token('\\d{15,16}(?:\\||%7[Cc])[A-Za-z0-9_-]{27,40}') },
  {
    kind: 'flutterwave-key',
    hint: /FLW(?:PUB|SEC)K_TEST/,
    re: token('FLW(?:PUB|SEC)K_TEST-[a-h0-9]{32}-X|FLWSECK_TEST-[a-h0-9]{12}', 'gi'),
  },
  {
    kind: 'flyio-token',
    hint: /fo1_|fm[12][ar]?_/,
    re: token('fo1_[\\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,4096}={0,3}', 'g', BASE64),
  },
  { kind: 'frameio-token', hint: 'fio-u-', re: token('fio-u-[a-z0-9_=-]{64}', 'gi', '\\w=-') },
  {
    kind: 'gitlab-token',
    hint: /gl(?:pat|ptt|rt|dt|ft|cbt|imt|agent|oas|soat|ffct)-|GR1348941/,
    re: token(
      '(?:glpat|glptt|glrt|gldt|glft|glcbt|glimt|glagent|gloas|glsoat|glffct)-[0-9A-Za-z_.-]{20,300}|GR1348941[\\w-]{20}',
      'g',
      '\\w.-',
    ),
  },
  {
    kind: 'gitlab-session',
    hint: '_gitlab_session=',
    re: /_gitlab_session=([0-9a-z]{32})(?![0-9a-z])/dg,
    group: 1,
  },
  {
    kind: 'grafana-token',
    hint: /glc_|glsa_|eyJrIjoi/,
    re: token(
      'glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,2}',
      'g',
      BASE64,
    ),
  },
  {
    kind: 'harness-token',
    hint: /[ps]at\./,
    re: token('(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}', 'g', '\\w.-'),
  },
  {
    kind: 'hashicorp-token',
    hint: /atlasv1|hv[sb]\./,
    re: token(
      '[a-z0-9]{14}\\.atlasv1\\.[a-z0-9=_-]{60,70}|hvs\\.[\\w-]{90,120}|hvb\\.[\\w-]{138,300}',
      'gi',
      '\\w.=-',
    ),
  },
  { kind: 'heroku-key', hint: 'HRKU-AA', re: token('HRKU-AA[0-9A-Za-z_-]{58}') },
  { kind: 'huggingface-token', hint: /hf_|api_org_/, re: token('hf_[A-Za-z]{34}|api_org_[A-Za-z]{34}') },
  { kind: 'infracost-token', hint: /ico-[A-Za-z0-9]{8}/, re: token('ico-[A-Za-z0-9]{32}') },
  { kind: 'intra42-secret', hint: 's-s4t2', re: token('s-s4t2(?:ud|af)-[a-f0-9]{64}') },
  { kind: 'linear-key', hint: /lin_api_|LIN_API_/, re: token('lin_api_[a-z0-9]{40}', 'gi') },
  { kind: 'mailchimp-key', hint: /-us\d/, re: token('[a-f0-9]{32}-us\\d{1,2}') },
  { kind: 'mailgun-key', hint: /key-[a-f0-9]{8}/, re: token('(?:pub)?key-[a-f0-9]{32}') },
  {
    kind: 'mapbox-token',
    hint: /[ps]k\.[A-Za-z0-9]{20}/,
    re: token('[ps]k\\.[a-z0-9]{60}\\.[a-z0-9]{22}', 'gi', '\\w.-'),
  },
];
