package export

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// record is the part of a journal line the exporters map to attributes;
// the line itself travels whole too (the JSONL file, the syslog message).
type record struct {
	Seq      int64     `json:"seq"`
	Prev     string    `json:"prev"`
	Time     time.Time `json:"time"`
	Version  string    `json:"version"`
	Event    string    `json:"event"`
	Session  string    `json:"session"`
	Tool     string    `json:"tool"`
	Cwd      string    `json:"cwd"`
	Agent    string    `json:"agent"`
	Decision string    `json:"decision"`
	// Delivered and DeliveredWhy: what the agent got where it was not
	// the decision (the journal's: an ask it could not put, refused).
	Delivered    string  `json:"delivered"`
	DeliveredWhy string  `json:"delivered_why"`
	Message      string  `json:"message"`
	Stop         bool    `json:"stop"`
	StopReason   string  `json:"stop_reason"`
	Payload      string  `json:"payload_sha256"`
	ElapsedMS    float64 `json:"elapsed_ms"`
	Async        bool    `json:"async"`
	ServedBy     string  `json:"served_by"`
	Hooks        []hook  `json:"hooks"`
}

type hook struct {
	Command  string `json:"command"`
	Source   string `json:"source"`
	Ran      bool   `json:"ran"`
	Skipped  string `json:"skipped"`
	Decision string `json:"decision"`
	Script   string `json:"script"`
	SHA256   string `json:"sha256"`
	// Rule is the id of the policy rule that decided, on the records of
	// rule entries (issue 35); "" otherwise.
	Rule string `json:"rule"`
	// RuleSHA256 is the SHA-256 of the rule's whole text (the journal's
	// rule_sha256; its command keeps only the first bytes).
	RuleSHA256 string `json:"rule_sha256"`
	// TimedOut: a command killed at its timeout, a rule past its time
	// bound (the journal's timed_out).
	TimedOut bool `json:"timed_out"`
	// Would is what a hook in mode: shadow would have decided (the
	// journal's would): its decision is always none.
	Would string `json:"would"`
}

// item is one journal line queued for export, read once.
type item struct {
	line []byte // without the trailing newline
	rec  record
	ok   bool // rec was read from line
}

func newItem(line []byte) item {
	line = []byte(strings.TrimRight(string(line), "\r\n"))
	it := item{line: line}
	it.ok = json.Unmarshal(line, &it.rec) == nil
	// The journal keeps the whole called-by list (replay needs it); an
	// exported record names the agent that called.
	it.rec.Agent = protocol.FirstCaller(it.rec.Agent)
	return it
}

// attr is one OTLP attribute: a string, a bool, an int, a list of
// strings or a list of bools (exactly one is used, by kind).
type attr struct {
	key  string
	kind byte // 's', 'b', 'i', 'l', 'B'
	s    string
	b    bool
	i    int64
	l    []string
	bl   []bool
}

// decider is the hook whose verdict the record's decision is (the first
// whose own decision equals it), else nil.
func (r *record) decider() *hook {
	if r.Decision == "" || r.Decision == "none" {
		return nil
	}
	for i := range r.Hooks {
		if r.Hooks[i].Decision == r.Decision {
			return &r.Hooks[i]
		}
	}
	return nil
}

// attributes maps the record to OTLP log attributes: the semantic
// conventions' names where one exists (session.id, gen_ai.agent.name,
// gen_ai.tool.name, process.working_directory), hermes_hooks.* otherwise.
func (r *record) attributes() []attr {
	var a []attr
	str := func(k, v string) {
		if v != "" {
			a = append(a, attr{key: k, kind: 's', s: cutText(v, maxAttr)})
		}
	}
	str("session.id", r.Session)
	str("gen_ai.agent.name", r.Agent)
	str("gen_ai.tool.name", r.Tool)
	str("process.working_directory", r.Cwd)
	str("hermes_hooks.event", r.Event)
	str("hermes_hooks.decision", r.Decision)
	str("hermes_hooks.delivered", r.Delivered)
	str("hermes_hooks.delivered_why", r.DeliveredWhy)
	str("hermes_hooks.reason", r.Message)
	if r.Stop {
		a = append(a, attr{key: "hermes_hooks.stop", kind: 'b', b: true})
		str("hermes_hooks.stop_reason", r.StopReason)
	}
	a = append(a, attr{key: "hermes_hooks.journal.seq", kind: 'i', i: r.Seq})
	str("hermes_hooks.journal.prev", r.Prev)
	str("hermes_hooks.payload.sha256", r.Payload)
	str("hermes_hooks.served_by", r.ServedBy)
	if r.Async {
		a = append(a, attr{key: "hermes_hooks.async", kind: 'b', b: true})
	}
	if h := r.decider(); h != nil {
		str("hermes_hooks.hook.command", h.Command)
		str("hermes_hooks.hook.source", h.Source)
		str("hermes_hooks.hook.script", h.Script)
		str("hermes_hooks.hook.sha256", h.SHA256)
		str("hermes_hooks.rule.id", h.Rule)
		str("hermes_hooks.rule.sha256", h.RuleSHA256)
	}
	if len(r.Hooks) > 0 {
		cmds := make([]string, len(r.Hooks))
		sums := make([]string, len(r.Hooks))
		// One per hook, as the lists beside it: which guard timed out is
		// asked of a fail-open one too, which never decides.
		late := make([]bool, len(r.Hooks))
		// What a shadow hook would have decided, "" for the others: a
		// rule tried in mode: shadow is watched on a dashboard too.
		would, shadow := make([]string, len(r.Hooks)), false
		for i, h := range r.Hooks {
			cmds[i], sums[i] = cutText(h.Command, maxAttr), cutText(h.SHA256, maxAttr)
			late[i] = h.TimedOut
			would[i], shadow = cutText(h.Would, maxAttr), shadow || h.Would != ""
		}
		a = append(a, attr{key: "hermes_hooks.hooks.command", kind: 'l', l: cmds},
			attr{key: "hermes_hooks.hooks.sha256", kind: 'l', l: sums},
			attr{key: "hermes_hooks.hooks.timed_out", kind: 'B', bl: late})
		if shadow {
			a = append(a, attr{key: "hermes_hooks.hooks.would", kind: 'l', l: would})
		}
	}
	return a
}

// maxAttr bounds each text an exported record carries (a payload's tool
// name, a hook's message may be megabytes): a collector refuses a request
// too long whole, with every other record of its batch.
const maxAttr = 4096

// summary is the record in one line of text, the log record's body and
// the syslog message's start: "block pre_tool_call terminal: no rm -rf",
// at most maxSummary bytes.
func (r *record) summary() string {
	return cutText(r.fullSummary(), maxSummary)
}

func (r *record) fullSummary() string {
	var b strings.Builder
	b.WriteString(r.Decision)
	if r.Delivered != "" {
		b.WriteString(" (delivered as " + r.Delivered + ")")
	}
	b.WriteByte(' ')
	b.WriteString(r.Event)
	if r.Tool != "" {
		b.WriteByte(' ')
		b.WriteString(r.Tool)
	}
	if r.Message != "" {
		b.WriteString(": ")
		b.WriteString(r.Message)
	}
	return b.String()
}

// blocked reports whether the record is a refusal (the log's severity):
// decided, or what the agent got (an ask it could not put).
func (r *record) blocked() bool {
	return r.Decision == "block" || r.Decision == "deny" || r.Delivered == "block"
}
