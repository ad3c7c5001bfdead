package rule

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// shared is what every Compile shares: expr's configuration (the
// environment's types read from Input by reflection, the builtin and
// function tables) built once per process, and the checker expr lets a
// caller reuse. expr.Compile builds all of that again per
// call, which was most of a rule's compile time; a one-shot `hook` with a
// rule file compiles every rule it decides before its first decision.
//
// The configuration keeps caches of type information that checking
// fills in, so it is not safe for concurrent use: mu serialises compiles
// (a rule compiles in tens of microseconds and is bounded by
// MaxSourceBytes and MaxNodes, so a wait is short).
var shared struct {
	once    sync.Once
	mu      sync.Mutex
	config  *conf.Config
	checker checker.Checker
}

// newConfig is the configuration expr.Compile would build from
// Env(Input{}), AsBool(), MaxNodes(MaxNodes) and the functions options
// adds.
func newConfig() *conf.Config {
	c := conf.CreateNew()
	for _, op := range options() {
		op(c)
	}
	for name := range c.Disabled {
		delete(c.Builtins, name)
	}
	return c
}

// options are expr's options for a rule: the environment, a boolean
// result, the node limit, the functions the guard puts in, and bounded
// or ordered versions of builtins (toJSON, fromJSON, split, splitAfter; keys,
// values; int, abs, numbers.go) in place of expr's, and commands (commands.go)
// and code (code.go).
func options() []expr.Option {
	return []expr.Option{
		expr.Env(Input{}),
		expr.AsBool(),
		expr.MaxNodes(MaxNodes),
		expr.Function(strictKey, fetchKey, new(func(any, string) any)),
		expr.Function(stepFn, step),
		stepTyped,
		expr.Function(concatFn, concat, new(func(string, string) string)),
		expr.Function(addFn, add, new(func(any, any) any)),
		expr.Function(subFn, sub, new(func(any, any) any)),
		expr.Function(mulFn, mul, new(func(any, any) any)),
		expr.Function(sumFn, sumOf, new(func(any) any)),
		expr.Function(matchesFn, matches, new(func(any, any) bool)),
		expr.Function(matchesConstFn, matchesConst, new(func(any, *lazyPattern) bool)),
		expr.Function("int", toInt, new(func(any) int)),
		expr.Function("abs", absOf, new(func(any) any)),
		expr.Function("toJSON", toJSON, new(func(any) string)),
		expr.Function("fromJSON", fromJSON, new(func(string) any)),
		expr.Function("keys", keys, new(func(map[string]any) []any)),
		expr.Function("values", values, new(func(map[string]any) []any)),
		expr.Function("split", split, strings.Split, strings.SplitN),
		expr.Function("splitAfter", splitAfter, strings.SplitAfter, strings.SplitAfterN),
		expr.Function("commands", commands, new(func(string) []string)),
		expr.Function(commandsFn, commandsStopping, new(func(any, string) []string)),
		expr.Function("code", code, new(func(string) string)),
		expr.Function(codeFn, codeOfEnv, new(func(any, string) string)),
	}
}

// compile runs expr's pipeline (parse, check, the guard, optimise, emit)
// as expr.Compile does, on the shared configuration. The guard walks the
// checked tree itself and types what it puts in, so the tree is checked
// once; as an expr.Patch visitor it cost three checks. steps says whether
// the program checks a stop flag in its loops (stop.go).
func compile(src string) (prog *vm.Program, steps bool, err error) {
	return compileWith(src, false)
}

// compileWith is compile; plain leaves loops without the stop check, for
// tests that compare what a rule decides with and without it.
func compileWith(src string, plain bool) (prog *vm.Program, steps bool, err error) {
	shared.once.Do(func() { shared.config = newConfig() })
	shared.mu.Lock()
	defer shared.mu.Unlock()
	c := shared.config
	tree, err := parser.ParseWithConfig(src, c)
	if err != nil {
		return nil, false, asError(err)
	}
	pats := &patterns{src: src}
	ast.Walk(&tree.Node, pats)
	if pats.err != nil {
		return nil, false, pats.err
	}
	// The check types the tree: the guard's strict reads need to know
	// which member reads are on maps.
	_, err = shared.checker.Check(tree, c)
	pats.restore()
	if err != nil {
		return nil, false, asError(err)
	}
	g := &guard{src: src, cfg: c, plain: plain}
	ast.Walk(&tree.Node, g)
	if err := g.result(); err != nil {
		return nil, false, err
	}
	if err := optimizer.Optimize(&tree.Node, c); err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, false, asError(fe.Bind(tree.Source))
		}
		return nil, false, asError(err)
	}
	prog, err = compiler.Compile(tree, c)
	if err != nil {
		return nil, false, asError(err)
	}
	return prog, g.steps, nil
}

// asError keeps expr's position and message, and drops its snippet: the
// caller names the file and shows the rule.
func asError(err error) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return &Error{Line: fe.Line, Column: fe.Column + 1, Msg: safeMsg(withOperator(ruleWords(fe.Message)))}
	}
	return &Error{Msg: safeMsg(ruleWords(err.Error()))}
}

// safeMsg is msg cut to maxErrorRunes code points, with whatever a
// terminal would act on shown escaped. The cut comes first, so a payload
// of megabytes costs no more than its first few hundred characters.
func safeMsg(msg string) string {
	return textutil.Truncate(termsafe.Escape(textutil.CutRunes(msg, maxErrorRunes+1)), maxErrorRunes)
}

// operators are the rule language's word operators: a misspelt one
// (matchs) is a name expr cannot place where an operator goes.
var operators = []string{"matches", "contains", "startsWith", "endsWith", "in", "not", "and", "or"}

// withOperator adds the operator a misspelt word most likely meant to
// expr's `unexpected token Identifier("matchs")`, which names no fix.
func withOperator(msg string) string {
	if hint, ok := syntaxHints[msg]; ok {
		return msg + " — " + hint
	}
	word, ok := strings.CutPrefix(msg, `unexpected token Identifier("`)
	if !ok {
		return msg
	}
	if word, ok = strings.CutSuffix(word, `")`); !ok {
		return msg
	}
	if op := suggest.Closest(word, operators); op != "" {
		return msg + " — did you mean " + op + "?"
	}
	return msg
}

// syntaxHints are the fix of the parse errors people write most, whose
// words (the parser's) name none: = for ==, and a pattern's \s inside a
// "…" string, where \ starts an escape of the string.
var syntaxHints = map[string]string{
	`unexpected token Operator("=")`: "compare with ==",
	"invalid char escape":            "in a \"…\" string \\ starts an escape (\\n, \\\\): write a pattern's \\s as \\\\s, or put the pattern in a `…` string, which takes \\ as it is",
}

// ruleWords words a Go type assertion that failed inside expr's VM (a
// value of another type than the operation needs: a list where a string
// is matched) in the rule language's words: the message reaches the
// agent when a fail_closed rule blocks, and the person reading it wrote
// a rule, not Go ("interface {} is []interface {}, not []uint8").
func ruleWords(msg string) string {
	rest, ok := strings.CutPrefix(msg, "interface conversion: interface {} is ")
	if !ok {
		return msg
	}
	got, want, ok := strings.Cut(rest, ", not ")
	if !ok {
		return msg
	}
	return "a value of type " + langType(got) + " where " + langType(want) + " is needed"
}

// langType names a Go type as a rule knows it.
func langType(t string) string {
	switch {
	case t == "string", t == "[]uint8":
		return "string"
	case t == "bool":
		return "bool"
	case t == "int", t == "float64", t == "int64", t == "json.Number":
		return "number"
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "map["):
		return "map"
	case t == "nil", t == "<nil>":
		return "nil"
	}
	return t
}

// Error is a compile or evaluation error with its position in the rule's
// source (1-based; 0 when unknown).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

// maxErrorRunes bounds the message of a rule's error: it can quote the
// payload (int() of a string, a pattern from args that does not parse),
// and a fail_closed rule's error is the block reason the model, the
// agent's terminal and the journal get.
const maxErrorRunes = 300
