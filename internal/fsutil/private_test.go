package fsutil

import "testing"

// What RestrictToUser sets on Windows: a protected access list (nothing
// inherited) with one entry, full access for the user alone, inherited
// below a folder. (Wine keeps no access lists: their enforcement is not
// verified there.)
func TestUserOnlySDDL(t *testing.T) {
	for _, c := range []struct {
		folder bool
		want   string
	}{
		{false, "D:P(A;;FA;;;S-1-5-21-1-2-3-1001)"},
		{true, "D:P(A;OICI;FA;;;S-1-5-21-1-2-3-1001)"},
	} {
		if got := UserOnlySDDL("S-1-5-21-1-2-3-1001", c.folder); got != c.want {
			t.Errorf("folder %v: SDDL %q, want %q", c.folder, got, c.want)
		}
	}
}
