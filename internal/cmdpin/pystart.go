package cmdpin

import "strconv"

// pythonStart makes a Python script's pinned start (Start.Argv naming
// /proc/self/fd/3) run as `python3 SCRIPT` runs. Python sets the script's
// directory as sys.path[0] only after its start-up imports (site, its .pth
// files, sitecustomize); started from the descriptor, it would set
// /proc/self/fd, and putting the script's directory on PYTHONPATH instead
// imported a sitecustomize.py planted beside an approved script before the
// script ran — code nobody approved, which `python3 SCRIPT` never loads
// (consent_loads_more.txtar). So the interpreter gets a fixed bootstrap
// (`-c`) where the descriptor was: it puts the directory where -c put ”
// (after start-up, and not at all under -I or -P, as for a script), sets
// sys.argv[0] to the script as written, and runs the pinned copy as
// __main__.
func pythonStart(st *Start, dir, name string) {
	fd := scriptDir() + "/" + strconv.Itoa(scriptFD)
	for i, a := range st.Argv {
		if a != fd {
			continue
		}
		// Not runpy.run_path: it sets sys.argv[0] to the path it runs
		// (the descriptor) while the script runs. The code is compiled
		// under the script's name (tracebacks) and run in __main__'s
		// namespace, as the -c module is.
		boot := "import sys\n" +
			"d = sys.argv.pop(1)\n" +
			"sys.argv[0] = sys.argv.pop(1)\n" +
			"if sys.path and sys.path[0] == '':\n    sys.path[0] = d\n" +
			"del d\n" +
			"with open(" + strconv.Quote(fd) + ", 'rb') as f:\n    c = compile(f.read(), sys.argv[0], 'exec')\n" +
			"del f, sys\n" +
			"exec(c)\n"
		argv := append([]string{}, st.Argv[:i]...)
		argv = append(argv, "-c", boot, dir, name)
		st.Argv = append(argv, st.Argv[i+1:]...)
		return
	}
}
