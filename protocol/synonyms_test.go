package protocol

import (
	"reflect"
	"testing"
)

// Fold keeps both names of an argument the host sent twice (an adapter's
// twins) equal in every rewrite, so the rules that judge the rewritten
// call read what the agent is sent.
func TestFoldKeepsTwinsEqual(t *testing.T) {
	sent := map[string]any{"file_path": "a", "old_str": "x", "old_string": "x", "new_str": "y", "new_string": "y"}
	merge := func(args map[string]any) HookReport {
		return HookReport{Contribution: &Contribution{Args: args}}
	}
	replace := func(args map[string]any) HookReport {
		return HookReport{Contribution: &Contribution{Args: args, ReplaceArgs: true}}
	}
	for _, c := range []struct {
		name    string
		sent    map[string]any
		reports []HookReport
		want    map[string]any
	}{
		{"Claude Code's name rewritten", sent, []HookReport{merge(map[string]any{"new_string": "K"})},
			map[string]any{"file_path": "a", "old_str": "x", "old_string": "x", "new_str": "K", "new_string": "K"}},
		{"the host's name rewritten", sent, []HookReport{merge(map[string]any{"new_str": "K"})},
			map[string]any{"file_path": "a", "old_str": "x", "old_string": "x", "new_str": "K", "new_string": "K"}},
		{"both apart: Claude Code's wins", sent, []HookReport{merge(map[string]any{"new_str": "A", "new_string": "B"})},
			map[string]any{"file_path": "a", "old_str": "x", "old_string": "x", "new_str": "B", "new_string": "B"}},
		{"a later hook's rewrite wins", sent, []HookReport{merge(map[string]any{"new_string": "A"}), merge(map[string]any{"new_str": "B"})},
			map[string]any{"file_path": "a", "old_str": "x", "old_string": "x", "new_str": "B", "new_string": "B"}},
		// Each hook is shown the call as sent: B changed Droid's name in
		// its whole input (Claude Code's is as sent), after A's rewrite.
		{"a later whole input changing the host's name", sent, []HookReport{merge(map[string]any{"new_string": "K"}), replace(map[string]any{"new_str": "M", "new_string": "y"})},
			map[string]any{"new_str": "M", "new_string": "M"}},
		{"a whole input in Claude Code's names", sent, []HookReport{replace(map[string]any{"file_path": "b", "old_string": "x", "new_string": "K"})},
			map[string]any{"file_path": "b", "old_str": "x", "old_string": "x", "new_str": "K", "new_string": "K"}},
		{"a whole input without the argument", sent, []HookReport{replace(map[string]any{"file_path": "b"})},
			map[string]any{"file_path": "b"}},
		// A host that sent one name only (Claude Code) has no twins: a
		// hook's key of the other name is its own.
		{"no twins sent", map[string]any{"old_string": "x"}, []HookReport{merge(map[string]any{"old_str": "K"})},
			map[string]any{"old_string": "x", "old_str": "K"}},
		// Two names with two values are two arguments.
		{"two values sent", map[string]any{"path": "p", "file_path": "q"}, []HookReport{merge(map[string]any{"path": "K"})},
			map[string]any{"path": "K", "file_path": "q"}},
		// Two blank texts are equal by chance (an MCP tool's input and
		// patch), not one argument shown twice.
		{"two blanks sent", map[string]any{"input": "", "patch": ""}, []HookReport{merge(map[string]any{"patch": "DIFF"})},
			map[string]any{"input": "", "patch": "DIFF"}},
		// A file tool's blank text (Droid deleting text) is one argument.
		{"a blank twin rewritten", map[string]any{"new_str": "", "new_string": ""}, []HookReport{merge(map[string]any{"new_str": "K"})},
			map[string]any{"new_str": "K", "new_string": "K"}},
	} {
		before := cloneMap(c.sent)
		o := Fold(ev("pre_tool_call"), c.sent, c.reports)
		if !reflect.DeepEqual(o.Args, c.want) || !reflect.DeepEqual(c.sent, before) {
			t.Errorf("%s: args %v, want %v (sent now %v)", c.name, o.Args, c.want, c.sent)
		}
	}
}

// FuzzFoldTwins: whatever rewrites hooks make, in any order, merged or
// whole, the two names of an argument the host sent twice end equal (or
// both absent), and the value is one a hook wrote or the host sent.
func FuzzFoldTwins(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 5, 3})
	f.Add([]byte{7, 0, 0, 3, 3, 1, 6, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 60 {
			ops = ops[:60]
		}
		values := []any{"a", "b", "c", nil, 1.5}
		sent := map[string]any{"new_str": "s", "new_string": "s", "file_path": "p"}
		written := map[any]bool{"s": true}
		var reports []HookReport
		for i := 0; i+2 < len(ops); i += 3 {
			v := values[int(ops[i+1])%len(values)]
			args := map[string]any{}
			switch ops[i] % 4 {
			case 0:
				args["new_str"] = v
			case 1:
				args["new_string"] = v
			case 2:
				args["new_str"], args["new_string"] = v, values[int(ops[i+2])%len(values)]
				written[values[int(ops[i+2])%len(values)]] = true
			case 3:
				args["file_path"] = v
			}
			written[v] = true
			reports = append(reports, HookReport{Contribution: &Contribution{Args: args, ReplaceArgs: ops[i+2]%5 == 0}})
		}
		o := Fold(ev("pre_tool_call"), sent, reports)
		if o.Args == nil {
			return
		}
		a, okA := o.Args["new_str"]
		b, okB := o.Args["new_string"]
		if okA != okB || !reflect.DeepEqual(a, b) || okA && !written[a] {
			t.Fatalf("twins %v (%v) / %v (%v) after %v", a, okA, b, okB, ops)
		}
	})
}
