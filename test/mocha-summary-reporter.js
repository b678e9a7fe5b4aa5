// Mocha's spec output, plus a machine-readable summary ("passed failed") for scripts/test.sh and
// a closing `N passed, M failed` line that CI systems recognise.
const fs = require('fs');
const Mocha = require('mocha');
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options.reporterOptions && options.reporterOptions.summaryFile;
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      console.log(`unit tests: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
      if (file) fs.writeFileSync(file, `${s.passes} ${s.failures}\n`);
    });
  }
}
module.exports = SummaryReporter;
