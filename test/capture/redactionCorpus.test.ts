import assert from 'node:assert/strict';
import { test } from 'node:test';
import { casesOfRuleFile, sampleTemplates } from '../bench/redaction/goCases';
import { sampleOf } from '../bench/redaction/regexSample';
import { casesOfTestFile } from '../bench/redaction/trufflehogCases';
import { seededRandom } from '../support/seededRandom';

// A rules file written here in the shape of gitleaks' (cmd/generate/config/rules/*.go).
const RULES = `package rules

func Example() *config.Rule {
	r := config.Rule{
		RuleID:      "example-token",
		Regex:       regexp.MustCompile(\`exa_[0-9a-z]{8}\`),
	}
	tps := utils.GenerateSampleSecrets("example", "exa_"+secrets.NewSecret(utils.AlphaNumeric("8")))
	tps = append(tps, "literal exa_12345678 \\"quoted\\"", utils.GenerateSampleSecret("ex", \`raw\`))
	fps := []string{
		"exa_xxxxxxxx", // a stand-in
		strings.Repeat("a", 3),
	}
	return utils.Validate(r, tps, fps)
}
`;
const GENERATE = `func GenerateSampleSecrets(identifier string, secret string) []string {
	samples := map[string]string{
		// INI
		"ini - quoted1":   "{i}Token=\\"{s}\\"",
		// TODO: "xml": "<{i}>{s}</{i}>",
		"go - backticks": "{I}_TOKEN := \`{s}\`",
	}
	return nil
}`;

test('gitleaks rule cases: generated, literal and appended true positives; an unknown expression is skipped', () => {
  const templates = sampleTemplates(GENERATE);
  assert.deepEqual(templates, ['{i}Token="{s}"', '{I}_TOKEN := `{s}`']);
  const { cases, skipped } = casesOfRuleFile('example.go', RULES, { templates, random: seededRandom(1) });
  assert.equal(skipped, 1, 'strings.Repeat is not understood: the whole fps list is skipped');
  const secrets = cases.filter((c) => c.label === 'secret');
  assert.equal(secrets.length, 4);
  const generated = secrets[0]?.secret ?? '';
  assert.match(generated, /^exa_[0-9a-z]{8}$/);
  assert.equal(secrets[0]?.text, `exampleToken="${generated}"`);
  assert.equal(secrets[1]?.text, `EXAMPLE_TOKEN := \`${generated}\``);
  assert.equal(secrets[2]?.text, 'literal exa_12345678 "quoted"');
  assert.equal(secrets[2]?.secret, undefined);
  assert.deepEqual(secrets[3], {
    rule: 'example-token',
    file: 'example.go',
    label: 'secret',
    text: 'ex_api_token = "raw"',
    secret: 'raw',
  });
});

test('regex samples: classes, bounds, groups and alternation; unknown syntax gives nothing', () => {
  const random = seededRandom(7);
  for (const pattern of [
    '[A-Z2-7]{16}',
    '(?:ghp|gho)_[0-9a-zA-Z]{36}',
    'xox[baprs]-[0-9]{10,13}',
    '(?i)[a-f0-9]{8}-\\d{4}',
  ]) {
    const sample = sampleOf(pattern, random);
    assert.ok(
      sample !== undefined && new RegExp(`^${pattern.replace('(?i)', '')}$`).test(sample),
      `${pattern}: ${sample}`,
    );
  }
  assert.equal(sampleOf('\\p{L}+', random), undefined);
});

// A detector test written here in the shape of trufflehog's (pkg/detectors/<name>/<name>_test.go).
const DETECTOR_TEST = `package example

var (
	validPattern = "exa1b2c3d4e5f6g7h8"
	keyword      = "example"
	host         = "api.example.com"
)

func TestExample_Pattern(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{
			name:  "valid pattern",
			input: fmt.Sprintf("%s token = '%s'", keyword, validPattern),
			want:  []string{validPattern},
		},
		{
			name: "raw input, composite result",
			input: \`
				EXAMPLE_HOST=api.example.com
				EXAMPLE_ID=acct-0042 EXAMPLE_SECRET=s3cr3tV4lu3X9
			\`,
			want: []string{"acct-0042:s3cr3tV4lu3X9:" + host},
		},
		{
			name:  "out of range",
			input: fmt.Sprintf("%s is far away = '%s'", keyword, validPattern),
			want:  nil,
		},
		{
			name:  "unknown call",
			input: strings.Repeat("a", 3),
			want:  []string{"aaa"},
		},
	}
}
`;

test('trufflehog cases: Sprintf and raw inputs, wanted results found whole or by their credential; unknown Go skipped', () => {
  const { cases, skipped } = casesOfTestFile('example', DETECTOR_TEST);
  assert.equal(skipped, 1, 'strings.Repeat is not evaluated');
  assert.deepEqual(cases[0], {
    detector: 'example',
    text: "example token = 'exa1b2c3d4e5f6g7h8'",
    secrets: ['exa1b2c3d4e5f6g7h8'],
  });
  // Not the account id (shorter), not the host (a location): the secret.
  assert.deepEqual(cases[1]?.secrets, ['s3cr3tV4lu3X9']);
  assert.equal(cases.length, 2, 'a case that wants nothing is no label');
});
