package fsutil

// UserOnlySDDL is the access list RestrictToUser gives on Windows, for the
// user whose SID is sid: protected (nothing inherited from the folder
// above) and granting full access to that user alone, not even to SYSTEM
// or the Administrators; a folder's entry is inherited by what is made in
// it (object and container inherit).
func UserOnlySDDL(sid string, folder bool) string {
	inherit := ""
	if folder {
		inherit = "OICI"
	}
	return "D:P(A;" + inherit + ";FA;;;" + sid + ")"
}
