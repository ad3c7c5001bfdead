package hookconfig

import "github.com/hermes-hooks/hermes-hooks/internal/shownurl"

// ShownURL is raw as a URL is printed (list, approve, the journal, the
// allowlist, serve's metrics, a block's reason the agent and its model
// read): what it may carry for the request only (user information, query
// values, a path segment that is plainly a token, the fragment) replaced
// by xxxxx (internal/shownurl, shared with export's errors). The approval
// still pins the whole URL (the dispatcher's httpSpec and opaSpec
// digests), so a changed secret needs a new approval.
func ShownURL(raw string) string { return shownurl.URL(raw) }
