// Prints one plain closing line, "jest: N passed, N failed, N skipped", that any CI log reader understands.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    // A suite that fails to load has no failed test of its own; count it so the line never hides a failure.
    const failed = results.numFailedTests || results.numFailedTestSuites;
    const line = `jest: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests + results.numTodoTests} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
