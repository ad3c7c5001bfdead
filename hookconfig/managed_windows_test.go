package hookconfig

import (
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

// The managed config on Windows is the administrator's only when the
// system owns it and nobody else holds a right that changes it (a file)
// or replaces what it holds (a folder). The security descriptors are
// written in SDDL, so the table runs wherever Windows' parser does (Wine
// too), whatever the test folder's own ACL is.
func TestManagedSecurityDescriptors(t *testing.T) {
	const users = "S-1-5-32-545" // BUILTIN\Users, as Windows writes BU out
	const someone = "S-1-5-21-1-2-3-1001"
	cases := []struct {
		name, sddl string
		rights     windows.ACCESS_MASK
		want       string // a part of the problem; "" when there is none
	}{
		{"system owned, users read", "O:SYD:(A;;FA;;;SY)(A;;FA;;;BA)(A;;FR;;;BU)", fileWriteRights, ""},
		{"administrators owned", "O:BAD:(A;;FA;;;SY)(A;;FA;;;BA)(A;;0x1200a9;;;BU)", fileWriteRights, ""},
		{"TrustedInstaller owned", "O:" + trustedInstaller + "D:(A;;FA;;;" + trustedInstaller + ")(A;;FR;;;BU)", fileWriteRights, ""},
		{"owned by a user", "O:" + someone + "D:(A;;FA;;;SY)", fileWriteRights, "is owned by " + someone},
		{"users may write", "O:SYD:(A;;FA;;;SY)(A;;FW;;;BU)", fileWriteRights, "may be changed by " + users},
		{"users may append", "O:SYD:(A;;FA;;;SY)(A;;0x4;;;BU)", fileWriteRights, "may be changed by " + users},
		{"a user may change the ACL", "O:SYD:(A;;FA;;;SY)(A;;WD;;;" + someone + ")", fileWriteRights, "may be changed by " + someone},
		{"a user may take ownership", "O:SYD:(A;;FA;;;SY)(A;;WO;;;" + someone + ")", fileWriteRights, "may be changed by " + someone},
		{"everyone has generic all", "O:SYD:(A;;GA;;;WD)", fileWriteRights, "may be changed by S-1-1-0"},
		{"no DACL", "O:SY", fileWriteRights, "has no access list"},
		// (A null DACL, "D:NO_ACCESS_CONTROL", is read as nil by the same
		// branch; Wine 8 parses it as an empty list, so it is not a row.)
		// What an administrator's folder hands to what it creates, and
		// CREATOR OWNER, give no right on the object itself.
		{"inherit-only grant to users", "O:SYD:(A;;FA;;;SY)(A;OIIO;FA;;;BU)(A;;FA;;;CO)", fileWriteRights, ""},
		// A deny entry is no grant.
		{"deny to users", "O:SYD:(A;;FA;;;SY)(D;;FW;;;BU)", fileWriteRights, ""},
		// A folder: users who may add files to it (ProgramData's default)
		// cannot replace the config another owns; delete-child can.
		{"folder, users may add files", "O:SYD:(A;;FA;;;SY)(A;;0x1200af;;;BU)", dirReplaceRights, ""},
		{"folder, users may delete children", "O:SYD:(A;;FA;;;SY)(A;;0x40;;;BU)", dirReplaceRights, "may be changed by " + users},
		{"folder, users may delete it", "O:SYD:(A;;FA;;;SY)(A;;SD;;;BU)", dirReplaceRights, "may be changed by " + users},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sd, err := windows.SecurityDescriptorFromString(c.sddl)
			if err != nil {
				t.Fatalf("%s: %v", c.sddl, err)
			}
			got := sdProblem("config.yaml", sd, c.rights)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Fatalf("%s: problem %q, want %q", c.sddl, got, c.want)
			}
		})
	}
}
