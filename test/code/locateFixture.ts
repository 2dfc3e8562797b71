import type { FixtureFiles } from './languageFixtures';

/**
 * A small Python package whose retry logic is described, in the same words, by its test, its
 * documentation and an example: more often there than in the implementation, as in real projects.
 */
export const PROJECT: FixtureFiles = {
  'pkg/retry.py': [
    'import time',
    '',
    '',
    'class RetryPolicy:',
    '    """How often and how long to wait between attempts."""',
    '',
    '    def __init__(self, attempts, base):',
    '        self.attempts = attempts',
    '        self.base = base',
    '',
    '    def backoff_delay(self, attempt):',
    '        """The delay before the next attempt, doubling each time."""',
    '        return self.base * 2 ** attempt',
    '',
    '    def sleep_before(self, attempt):',
    '        time.sleep(self.backoff_delay(attempt))',
    '',
  ].join('\n'),
  'pkg/session.py': [
    'class Session:',
    '    """An HTTP session that keeps cookies and headers."""',
    '',
    '    def send(self, request, timeout=None):',
    '        return request.prepare(self.headers, timeout)',
    '',
  ].join('\n'),
  'tests/test_retry.py': [
    'from pkg.retry import RetryPolicy',
    '',
    '',
    'def test_backoff_delay_doubles():',
    '    """The backoff delay doubles with each retry attempt."""',
    '    policy = RetryPolicy(attempts=3, base=1)',
    '    # backoff delay for attempt 0, 1, 2: the retry waits 1, 2, 4',
    '    assert policy.backoff_delay(0) == 1',
    '    assert policy.backoff_delay(1) == 2',
    '    assert policy.backoff_delay(2) == 4',
    '',
    '',
    'def test_backoff_delay_of_first_attempt():',
    '    policy = RetryPolicy(attempts=1, base=3)',
    '    assert policy.backoff_delay(0) == 3  # first retry attempt, no backoff',
    '',
  ].join('\n'),
  'docs/retries.md': [
    '# Retries',
    '',
    'Every retry attempt waits a backoff delay: `RetryPolicy.backoff_delay(attempt)` doubles the',
    'delay with each attempt. A retry policy with a base of 1 waits 1, 2 and 4 seconds.',
    '',
  ].join('\n'),
  'examples/retry_example.py': [
    'from pkg.retry import RetryPolicy',
    '',
    '# Print the backoff delay of each retry attempt.',
    'policy = RetryPolicy(attempts=5, base=0.5)',
    'for attempt in range(5):',
    '    print("retry attempt", attempt, "backoff delay", policy.backoff_delay(attempt))',
    '',
  ].join('\n'),
};

export const ISSUE = [
  'backoff_delay is wrong for the first retry attempt',
  '',
  'With RetryPolicy(attempts=3, base=2) the backoff delay before the first retry attempt is 2',
  'seconds, but the docs say the first attempt waits the base delay and then doubles. I expected',
  'the backoff delay of attempt 0 to be the base.',
].join('\n');
