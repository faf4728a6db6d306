// The import rules of .dependency-cruiser.mjs under src/ (no import cycles; the server's floors point one
// way), part of `npm run validate`.
// Runs dependency-cruiser through its API: its command line refuses Node 20, which this project supports.
// Usage: node scripts/check-cycles.mjs   (exit 1 and one line per cycle or forbidden import)
import { cruise } from 'dependency-cruiser';
import config from '../.dependency-cruiser.mjs';

const result = await cruise(['src'], {
  ...config.options,
  validate: true,
  ruleSet: { forbidden: config.forbidden },
});
const { violations, totalCruised } = result.output.summary;
for (const v of violations) {
  const path = v.cycle?.length ? [v.from, ...v.cycle.map((step) => step.name)] : [v.from, v.to];
  console.error(`${v.rule.name}: ${path.join(' -> ')}`);
}
if (violations.length > 0) process.exit(1);
console.log(`no import cycles and no forbidden imports in ${totalCruised} modules`);
