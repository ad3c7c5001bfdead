package hookconfig

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/hermeshome"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// Hermes' timeout rules: default 60 s, at most 300 s.
const (
	DefaultTimeoutSeconds = 60
	MaxTimeoutSeconds     = 300
)

// Claude Code's timeout rules for Claude-dialect entries: 600 s by default
// (30 s on UserPromptSubmit and the model-switch events, 10 s on
// MessageDisplay), as Claude Code has them since v2.1.3. Claude Code sets
// no upper bound; ours is its default, 600 s, so that a typo (timeout:
// 60000) cannot park a dispatch — and a server slot — for most of a day.
const (
	DefaultClaudeTimeoutSeconds = 600
	MaxClaudeTimeoutSeconds     = 600
)

// claudeDefaultTimeout is Claude Code's default for the event
// (Event.ClaudeTimeout, else its general default).
func claudeDefaultTimeout(ev *protocol.Event) time.Duration {
	if ev.ClaudeTimeout > 0 {
		return time.Duration(ev.ClaudeTimeout) * time.Second
	}
	return DefaultClaudeTimeoutSeconds * time.Second
}

// Warning is a problem found in a config that did not stop it from loading:
// the offending entry was skipped or corrected.
type Warning struct {
	// Path locates the problem: "hooks.pre_tool_call[2].timeout", or a file.
	Path    string
	Message string
	// File is the config file the warning is about, and Key the key path
	// in it ("hooks.pre_tool_call[2]"; "" when Path is it): what
	// `hermes-hooks validate` turns into a line.
	File, Key string
	// Line is the line in File when the warning knows it (a file that
	// does not load, by its error); 0: validate finds it from Key.
	Line int
	// Minor: the config still means what it says, only less (a timeout
	// clamped to the maximum, a file of an agent not installed here).
	// Every other warning is a problem: something written is ignored or
	// changed, and `validate` fails on it.
	Minor bool
}

func (w Warning) String() string {
	if w.Path == "" {
		return w.Message
	}
	if strings.HasPrefix(w.Message, ".") || strings.HasPrefix(w.Message, " ") || strings.HasPrefix(w.Message, "[") {
		return w.Path + w.Message
	}
	return w.Path + ": " + w.Message
}

// Entry is one configured hook.
type Entry struct {
	// Event is the canonical event the entry fires on.
	Event *protocol.Event
	// DeclaredAs is the event key as written (an alias or Claude name keeps
	// its spelling); consent is keyed by it.
	DeclaredAs string
	// Index is the entry's position in its event's list (for messages).
	Index   int
	Command string
	// Matcher is the matcher as written, stripped; "" means none.
	Matcher string
	Timeout time.Duration
	// TimeoutSet: the entry's own timeout key set Timeout (not its
	// dialect's default): Claude Code raises an event's shared budget by
	// configured timeouts only (protocol.SharedBudget).
	TimeoutSet bool
	// FailClosed turns failures into blocks.
	FailClosed bool
	Dialect    protocol.Dialect
	// Source is the file the entry came from, or the built-in rule file
	// (builtin:NAME) it came from: SourceFile tells them apart.
	Source string
	// Priority orders entries (lower first; ties keep config order).
	Priority int
	// ProjectDir is CLAUDE_PROJECT_DIR for Claude-dialect entries (and a
	// Codec's ProjectVars for its entries; "" means the host's cwd).
	ProjectDir string
	// WorkDir is where the hook runs and where its relative script path is
	// found ("" means the dispatcher's working directory; project-local
	// hooks run in their project root).
	WorkDir string
	// Spec is the entry's kind and what only that kind needs: a command
	// (nil: a command too), a worker, an http handler, or one that cannot
	// run here (spec.go). Command is the command of a command or worker
	// entry ("" for other kinds: Text is what any entry is shown by).
	Spec Spec
	// Claude Code handler features (Claude-dialect entries only).
	//
	// Async runs the hook in the background (AsyncRewake: its exit 2 wakes
	// the model); Once runs it once per session; If is a permission rule
	// that filters tool events.
	Async       bool
	AsyncRewake bool
	Once        bool
	If          string
	// StopGrace: past its timeout the hook gets SIGTERM, SIGKILL this long
	// after (agents.Source.StopGrace: how its file's agent stops a hook).
	StopGrace time.Duration
	ifRule    *permrule.IfRule
	ifBroken  string
	// Codec is how the entry's script talks when its agent's own protocol
	// is none of the dialects (Cursor's hooks.json, Gemini CLI's settings):
	// its payload, reply, matcher subject and project variables (and, with
	// protocol.EventRules, the firings its event covers, its fail_closed
	// and matcher rules); Dialect is then the codec's.
	// Such an entry otherwise runs as a Claude-dialect one (ClaudeShaped).
	Codec protocol.Codec
	// RunBy names the agent whose own hook file declared the entry when it
	// reads that file itself (agents.RunsItself): a dispatch CalledBy that
	// agent skips it. FileOf names that agent whether or not it reads it.
	RunBy, FileOf string
	// Shadow is mode: shadow: the hook runs and its report (and the
	// journal) says what it would have asked for, but its reply is kept
	// out of the outcome.
	Shadow bool
	// Sequential is a Codec entry of a group that asks its agent to run
	// the hooks selected for a firing one after another (Gemini CLI's
	// sequential: true; the Codec is a protocol.Sequencer): then every
	// selected entry of that Codec runs in order, each fed what the ones
	// before it changed.
	Sequential bool
	// OwnEventOnly is skill_commands: false: the entry runs on its own
	// event only, not also on the events that run that event's entries
	// (protocol.Event.AlsoRuns: PreSkillShellCommand runs pre_tool_call's).
	OwnEventOnly bool
	// Duplicate is set on a listed entry that repeats an earlier one (same
	// event, dialect, matcher and command): it is shown, as Hermes shows
	// it, but registers — and runs — once.
	Duplicate bool
	// Scope is where the entry came from, for consent: the zero Scope for
	// the user's own config files, a project root and source file for a
	// repository's hooks (its .hermes/hooks.yaml, its .claude settings), so
	// an approval given in one repository never approves another's.
	Scope consent.Scope
	// BundleKeys, on a bundle's entry (Scope.Bundle), are the managed
	// layer's trusted_bundle_keys the config was loaded under (none: any
	// key bundle install took); see consent.Request.BundleKeys.
	BundleKeys []string
	// ManagedBundle: a bundle's entry from a managed layer's bundles
	// directory (root's alone, checked at load): safe mode, a user's
	// switch, does not turn it off; its signature still decides.
	ManagedBundle bool
	// Examples are payloads with the outcome the hook must produce on
	// them (examples:; tool events only), run by `test --examples` and
	// doctor.
	Examples []Example

	match    matcher
	order    int  // position in the whole config, for stable sorting
	shownNth int  // > 1: Text adds " [n]" (numberShown)
	ready    bool // matcher and if rule compiled (by Load, or by New)
	ownLine  bool // a line of ours in an agent's hook file (Config.OwnLines)
}

// TimeoutSeconds is the timeout as Hermes prints it ("60", "1.5").
func (e *Entry) TimeoutSeconds() string {
	return strconv.FormatFloat(e.Timeout.Seconds(), 'f', -1, 64)
}

// Order is the entry's position in the whole config, for a stable order.
func (e *Entry) Order() int { return e.order }

// prepareMu serialises Prepare: hand-built entries may be shared by
// several dispatchers built at once.
var prepareMu sync.Mutex

// Prepare completes an entry a host built by hand instead of loading it:
// what Load would have filled in (the declared name consent is keyed by,
// the default timeout and dialect) and, above all, its compiled matcher and
// if rule, without which Entry{Matcher: "terminal"} would match every tool.
// warn hears about a matcher that does not compile. An entry Load made is
// prepared already.
func (e *Entry) Prepare(warn func(string)) {
	prepareMu.Lock()
	defer prepareMu.Unlock()
	if e.ready {
		return
	}
	if e.DeclaredAs == "" {
		e.DeclaredAs = e.Event.Name
	}
	if e.Dialect == "" {
		e.Dialect = protocol.Hermes
	}
	if e.Timeout <= 0 {
		e.Timeout = DefaultTimeoutSeconds * time.Second
		if e.Dialect != protocol.Hermes {
			e.Timeout = claudeDefaultTimeout(e.Event)
		}
	}
	e.Matcher = strings.TrimSpace(e.Matcher)
	e.match = compileMatcher(e, warn)
	if e.If != "" {
		e.CompileIf()
	}
	e.ready = true
}

// Empty is a configuration with no hooks.
func Empty() *Config { return emptyConfig() }

// Config is a loaded configuration.
type Config struct {
	// Path is the YAML config file ("" when none was read).
	Path string
	// Entries are all hooks in config order: the YAML hooks: block (event
	// keys in file order, entries in list order), then each Claude settings
	// file in turn, then each Codex, Copilot and Cursor hook file; a
	// duplicate registers once (see Listed).
	Entries []*Entry
	// Listed are the entries as configured, duplicates included (marked
	// Duplicate), for list and doctor.
	Listed []*Entry
	// OwnLines are the handlers of the agents' hook files read that are in
	// the form install writes (agents.Agent.IsOwnLine): not hooks (never
	// dispatched), but what the agent itself runs, which list and validate
	// show when it is not this hermes-hooks (report.ForeignLines).
	OwnLines []*Entry
	// AutoAccept is hooks_auto_accept, read strictly (consent.AutoAccept).
	AutoAccept bool
	// Tools translates tool names (defaults plus tool_aliases:).
	Tools *protocol.ToolTable
	// ToolAliases is the tool_aliases: block as written.
	ToolAliases map[string]string
	// Journal is the journal: block (see JournalConfig).
	Journal JournalConfig
	// Export is the export: block (see ExportConfig).
	Export ExportConfig
	// AgentFiles are the agents' own hook files (Claude settings, Codex,
	// Copilot and Cursor hook files), by agent name: as the config lists
	// them after ParseConfig, the files read after Load (see
	// AgentHookFiles).
	AgentFiles AgentFiles
	// ProjectHooks is the project-local hooks file that was merged, if any
	// (the first, when LoadOptions named several projects); ProjectFiles
	// lists every one.
	ProjectHooks string
	ProjectFiles []string
	// RuleFiles are the rule files the config and the project hooks
	// files include (rules:), in the order read.
	RuleFiles []string
	// BundleFiles are the config fragments of the installed bundles read.
	BundleFiles []string
	// PlacesFiles are the agents' own configs read to tell which entries
	// an agent runs itself (Entry.RunBy: Codex's config.toml, for its
	// project_root_markers), a missing one too, and PlacesMarkers the
	// paths RootByMarkers looked at for its root: a change there (a
	// marker made or removed) moves that answer, and serve reloads on it.
	PlacesFiles, PlacesMarkers []string
	// Warnings lists everything that was skipped or corrected.
	Warnings []Warning
	// Unloaded are the project hook sources that could not be loaded
	// (each also has its warning): while one may hold a guard, Dispatch
	// refuses gating events (see ScopedGate).
	Unloaded []Unloaded
	// Managed is the managed layer (managed.go), when LoadOptions.Managed
	// asked for it: its hooks lead Entries, marked by Scope.Managed.
	Managed ManagedLayer

	claudeSwitches []claudeSwitches
	// ruleFiles are the rules: includes as written (rules.go), resolved
	// by Load; loadErr is the first problem that makes the file unusable
	// (a rule entry that cannot mean what it says).
	ruleFiles []ruleInclude
	// unread are the files of RuleFiles that could not be read, listed
	// for serve to watch but not counted by FilesRead.
	unread  []string
	loadErr error
	flat    *pyyaml.Flattened // its YAML's keys given twice (parse_yamlkeys.go)
	// share is what the load this file is part of spends (load_share.go):
	// its own, shared with the rules: files it includes (and theirs).
	share *loadShare
	// builtin: the config is a built-in rule file (builtin_rules.go),
	// whose includes may name built-in ones only. Marked, not read from
	// Path: a config of the user's may be named builtin:x.yaml on disk.
	builtin bool
	// aliased counts the entries read through aliased lists.
	aliased int
	// settings are the keys of this file's own settings other than
	// hooks: and rules: (and the managed ones, which say where they are
	// read themselves): what a rule file holds but does not read.
	settings []string
	// limit caps the hook definitions read from the file being parsed
	// (a project's: MaxProjectEntries).
	limit entryLimit
	// failClosedSeen are the anchored YAML nodes failClosedAt and
	// textAsks have visited while the file is parsed (dropped once it
	// is), and failClosedVisits counts their steps (bounded by the file's
	// size): what TestPastCapAliasesOnce checks, as no output shows it.
	failClosedSeen   map[*yaml.Node]walks
	failClosedVisits int
}

// LoadOptions adjusts Load.
type LoadOptions struct {
	// ConfigNamed: the path was named on purpose (--config), so a missing
	// file is an error, not "no hooks yet": a typo, or a file deleted under
	// a running serve, must not read as no guard.
	ConfigNamed bool
	// AgentFiles are further agent hook files to read, by agent name (the
	// --claude-settings, --codex-hooks … flags); unlike the config's lists,
	// a missing one is an error, since the user named it on purpose.
	AgentFiles AgentFiles
	// ProjectDir, when set, is where the project's own hooks are looked
	// for: the nearest .hermes/hooks.yaml from ProjectDir up to the
	// repository root (the first directory holding .git). Its hooks come
	// after the global ones and, like every hook, run only once approved.
	ProjectDir string
	// MoreProjectDirs are further directories whose projects' hooks are
	// loaded as ProjectDir's are, each file once: `hook AGENT` loads the
	// agent's own project directory as well as the payload's cwd, which a
	// `cd` may have taken out of the repository.
	MoreProjectDirs []string
	// BundleDirs are the bundles directories of the layers (the managed
	// one, then the user's): every bundle installed there adds its config
	// fragment's hooks after the global ones (bundles.go).
	BundleDirs []string
	// Managed reads the managed layer (ManagedPaths: the system's config an
	// administrator deploys, and the file HERMES_HOOKS_MANAGED_CONFIG
	// names): what every entrance of the CLI and serve do, and a Go host
	// should.
	Managed bool
	// SkipBuiltinExamples leaves the built-in rule files' examples unread
	// (a third of those files): hook and dispatch never run them, and
	// they read clean (TestBuiltinFilesReadClean). Any other file's are
	// read: their warnings are the user's to see.
	SkipBuiltinExamples bool
}

// DefaultConfigPath is $HERMES_HOME/config.yaml (HERMES_HOME defaults to
// ~/.hermes).
func DefaultConfigPath() (string, error) {
	home, err := hermeshome.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "config.yaml"), nil
}

// Load reads the YAML config at path and the agents' hook files (Claude
// settings and every other agent's hook file) it and opts name. A missing config file is an empty config, not an error.
func Load(path string, opts LoadOptions) (*Config, error) {
	var managed *Config
	var layer ManagedLayer
	if opts.Managed {
		managed, layer = loadManaged(ManagedPaths())
	}
	data, err := ReadConfigFile(path)
	var cfg *Config
	switch {
	case errors.Is(err, fs.ErrNotExist) && opts.ConfigNamed:
		return nil, &ConfigError{Path: path, Err: errNamedMissing}
	case errors.Is(err, fs.ErrNotExist):
		cfg = emptyConfig()
	case err != nil:
		return nil, &ConfigError{Path: path, Err: err}
	default:
		cfg, err = parseConfig(data, path, 0)
		if err == nil {
			cfg.warnWritable(path)
			cfg.shared().skipBuiltinExamples = opts.SkipBuiltinExamples
			if err = cfg.loadRules("", len(data)); err != nil {
				partialOf(err, cfg)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	cfg.shared().skipBuiltinExamples = opts.SkipBuiltinExamples // for the projects' and bundles'
	// The lists of agent hook files hold the names as written until now;
	// from here on they list the files actually read (addAgentFile appends
	// them).
	base := filepath.Dir(path)
	if cfg.Journal.Path != "" {
		cfg.Journal.Path = resolvePath(cfg.Journal.Path, base)
	}
	named := cfg.AgentFiles
	cfg.AgentFiles = AgentFiles{}
	for _, k := range agentFileKinds() {
		for _, p := range named[k.agent.Name] {
			if err := cfg.addAgentFile(k, resolvePath(p, base), ""); err != nil {
				return nil, err
			}
		}
		for _, p := range opts.AgentFiles[k.agent.Name] {
			if err := cfg.addAgentFile(k, resolvePath(p, ""), k.agent.Source.Flag); err != nil {
				return nil, err
			}
		}
	}
	cfg.addBundles(opts.BundleDirs, layer.TrustedBundleKeys)
	for _, p := range FindProjects(append([]string{opts.ProjectDir}, opts.MoreProjectDirs...), path) {
		// A repository must not be able to take the dispatcher down: a
		// project file that cannot be used skips that project's hooks with
		// a warning (and refuses tool calls while that project has an
		// approval: see Unloaded), and the global hooks (a fail-closed
		// guard among them) keep working.
		cfg.addProject(p)
		cfg.ProjectFiles = append(cfg.ProjectFiles, p)
	}
	cfg.applyClaudeSwitches()
	cfg.mergeManaged(managed, layer)
	cfg.keepRunByHere(opts)
	cfg.finish()
	return cfg, nil
}

func emptyConfig() *Config {
	return &Config{Tools: protocol.DefaultTools()}
}

// finish numbers the entries and registers duplicates once: the same
// command with the same matcher, dialect and event (Hermes' idempotence
// key; for a repository's hooks, within that repository), and the same
// Claude `if` rule: two guards that differ only in it are two guards.
// So are two that differ in how they enforce (mode: shadow, fail_closed,
// skill_commands; a Claude handler's once, async): the copy kept would
// otherwise decide for both (once a session, or too late to block), and a
// shadow copy listed first (a rule tried beside the same rule of a rules:
// file) would leave the enforcing one unrun.
// Listed keeps them all, as configured. A managed entry and another
// file's never stand for each other: the other may run another script of
// that name (its relative path is found elsewhere), and the managed one
// must run whatever the other file says.
func (cfg *Config) finish() {
	seen := make(map[string]bool, len(cfg.Entries))
	approvals, ids := map[string]*Entry{}, map[string]*Entry{}
	cfg.Listed = append([]*Entry(nil), cfg.Entries...)
	kept := make([]*Entry, 0, len(cfg.Entries))
	for _, e := range cfg.Listed {
		key := e.Event.Name + "\x00" + string(e.Dialect) + "\x00" + e.Matcher + "\x00" + e.If + "\x00" + e.SameKey() + "\x00" + e.Scope.Project + "\x00" + e.Scope.Bundle + "\x00" + strconv.FormatBool(e.Scope.Managed)
		key += "\x00" + strconv.FormatBool(e.Shadow) + strconv.FormatBool(e.FailClosed) + strconv.FormatBool(e.OwnEventOnly) +
			strconv.FormatBool(e.Once) + strconv.FormatBool(e.Async) + strconv.FormatBool(e.AsyncRewake)
		if !e.Scope.Global() {
			// A repository's files are approved apart (each with its
			// digest): a copy in one must not stand for the same hook in
			// another, which a clone may approve where it does not the
			// first. The dispatcher runs them once where the gate lets
			// both run one process (claude_dedup_clone_changed.txtar).
			key += "\x00" + e.Scope.Source
		}
		if r := e.Rule(); r != nil {
			// Two rules with one expression and other decisions are two.
			key += "\x00" + r.Decision + "\x00" + r.Message
		}
		if seen[key] {
			e.Duplicate = true
			continue
		}
		seen[key] = true
		cfg.sharedRuleApprovals(e, approvals)
		cfg.duplicateRuleID(e, ids)
		e.order = len(kept)
		kept = append(kept, e)
	}
	cfg.Entries = kept
	numberShown(cfg.Listed)
	cfg.Warnings = boundWarnings(cfg.Warnings)
}

// resolvePath expands a leading ~ and makes p absolute against base (the
// config's directory) or the working directory.
func resolvePath(p, base string) string {
	p = expandTilde(p)
	if !filepath.IsAbs(p) && base != "" {
		p = filepath.Join(base, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
