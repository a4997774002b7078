/** A startup problem the CLI reports in one line (and exits 1): a missing key, a bad config file. */
export class CliError extends Error {
  override readonly name = 'CliError';
}
