package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/export"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// DefaultFlushWithin bounds a detached `export flush`: a collector that
// does not answer keeps no process around longer (what is left stays in
// the spool for the next flush, or serve's).
const DefaultFlushWithin = 30 * time.Second

// FlushLinger is how long the detached flush waits for more records after
// the spool is empty: the hook calls of a burst (an agent's tool calls come
// in runs) then find it running and start no process of their own.
const FlushLinger = 2 * time.Second

// journalHook adds export to a one-shot journal: with an export: block,
// each appended line is left in the spool (one small file, written after
// the journal has the record), and Finish starts the flush.
func (a *App) journalHook(cfg *hookconfig.Config, home string) func([]byte) {
	if cfg == nil || cfg.Export.IsZero() {
		return nil
	}
	spool := export.Spool{Dir: filepath.Join(home, export.SpoolDir)}
	return func(line []byte) {
		if err := spool.Append(line); err != nil {
			a.Warn("export: cannot spool the record: " + err.Error() + " (the journal has it)")
			return
		}
		a.spooled = spool.Dir
	}
}

// Finish is what a one-shot command does after its answer is written:
// when it spooled records for export and no flush is running, it starts
// `export flush` detached (stdio closed, a session of its own), so the
// send delays neither this answer nor the agent, which waits only for this
// process. A flush already running would miss records that arrive as it
// ends; the next one-shot's flush, or serve's, sends them.
func (a *App) Finish() {
	if a.spooled == "" {
		return
	}
	spool := export.Spool{Dir: a.spooled}
	a.spooled = ""
	if spool.Busy() {
		return
	}
	self, err := os.Executable()
	if err != nil {
		a.Warn("export: no flush started: " + err.Error() + " (the records wait in " + spool.Dir + ")")
		return
	}
	args := []string{"export", "flush", "--quiet", "--linger", FlushLinger.String()}
	if a.ConfigPath != "" {
		args = append([]string{"--config", a.ConfigPath}, args...)
	}
	cmd := exec.Command(self, args...)
	cmd.Dir = filepath.Dir(spool.Dir) // HERMES_HOME: no project's files are read
	cmd.SysProcAttr = detached()
	a.childSignals()
	if err := cmd.Start(); err != nil {
		a.Warn("export: no flush started: " + err.Error() + " (the records wait in " + spool.Dir + ")")
		return
	}
	_ = cmd.Process.Release()
}

// FlushExport sends the spool's records to the config's export sinks,
// within the bound.
func (a *App) FlushExport(ctx context.Context, within, linger time.Duration) (export.FlushResult, error) {
	cfg, err := a.LoadConfigQuiet()
	if err != nil {
		return export.FlushResult{}, err
	}
	store, err := a.Store()
	if err != nil {
		return export.FlushResult{}, err
	}
	spool := export.Spool{Dir: filepath.Join(store.Home(), export.SpoolDir)}
	resolved, rerr := cfg.Export.Resolve(os.Getenv)
	if !resolved.Enabled() {
		// The mistake is then why nothing can be sent: said once, as the
		// error, not a warning and again as the error.
		if rerr != nil {
			return export.FlushResult{}, rerr
		}
		return export.FlushResult{}, WithHint(errNoExport, "add an export: block to "+cfg.Path+" (see docs/export.md)")
	}
	if rerr != nil {
		a.Warn("export: " + rerr.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	return spool.Flush(ctx, resolved, export.Options{Version: Version(), Linger: linger})
}
