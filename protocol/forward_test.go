package protocol

import (
	"reflect"
	"testing"
)

// A reply read by pre_tool_call's rules, run on a skill's shell command, is
// held to PreSkillShellCommand's: nobody can be asked and the command
// cannot change, as the event's own replies are (TestClaudePreSkillShellCommand).
func TestAdoptSkillShellCommand(t *testing.T) {
	skill, _ := Lookup("PreSkillShellCommand")
	pre, _ := Lookup("pre_tool_call")
	if !skill.Forwards(pre) || pre.Forwards(skill) || len(AlsoRunFor(pre)) != 1 || AlsoRunFor(pre)[0] != skill {
		t.Fatalf("catalog: PreSkillShellCommand must run pre_tool_call's entries, and only it")
	}
	args := map[string]any{"command": "curl --proto =https x"}
	for _, tc := range []struct {
		name string
		in   *Contribution
		want *Contribution
	}{
		{"nothing", nil, nil},
		{"block stays", &Contribution{Decision: DecisionBlock, Message: "no rm"}, &Contribution{Decision: DecisionBlock, Message: "no rm"}},
		{"allow stays", &Contribution{Decision: DecisionAllow}, &Contribution{Decision: DecisionAllow}},
		{"ask refuses", &Contribution{Decision: DecisionAsk, Message: "push?", RuleKey: "k"},
			&Contribution{Decision: DecisionBlock, Message: "push?; " + AskRefusedReason}},
		{"ask without a question", &Contribution{Decision: DecisionAsk}, &Contribution{Decision: DecisionBlock, Message: AskRefusedReason}},
		{"defer refuses", &Contribution{Decision: DecisionDefer}, &Contribution{Decision: DecisionBlock, Message: AskRefusedReason}},
		{"Hermes modify refuses", &Contribution{Args: args}, &Contribution{Decision: DecisionBlock, Message: InputChangeRefusedReason}},
		{"Claude updatedInput with allow refuses", &Contribution{Decision: DecisionAllow, Args: args, ReplaceArgs: true},
			&Contribution{Decision: DecisionBlock, Message: InputChangeRefusedReason}},
		{"a block keeps its reason, the rewrite goes", &Contribution{Decision: DecisionBlock, Message: "no", Args: args},
			&Contribution{Decision: DecisionBlock, Message: "no"}},
		{"context goes", &Contribution{Context: "fyi"}, nil},
		{"a system message stays", &Contribution{SystemMessage: "hi", Context: "fyi"}, &Contribution{SystemMessage: "hi"}},
	} {
		var in *Contribution
		if tc.in != nil {
			c := *tc.in
			in = &c
		}
		got := skill.Adopt(in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Adopt(%+v) = %+v, want %+v", tc.name, tc.in, got, tc.want)
		}
		if tc.in != nil && !reflect.DeepEqual(in, tc.in) {
			t.Errorf("%s: Adopt changed its argument", tc.name)
		}
	}
}
