// Loaded with `node --import` (bench:cluster --drain --profile <dir>): records a V8 CPU profile of the
// process and writes it as <dir>/<pid>.cpuprofile when the process exits (Chrome DevTools or
// speedscope open it). NODE_OPTIONS cannot carry --cpu-prof, hence the inspector session.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.FLEET_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // Same-thread inspector calls complete synchronously, so this runs inside the exit handler.
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
