package agents

import "github.com/hermes-hooks/hermes-hooks/protocol"

// The one-call forms of what doctor reads from a file it parsed once
// (Agent.Parse), for the tests that hand them a file's bytes.

// EntriesOff is EntriesOffIn of data, a's TrustFile.
func (a *Agent) EntriesOff(data []byte) func(file string, e FileEntry) string {
	return a.EntriesOffIn(a.Parse(data))
}

// RootMarkers is RootMarkersIn of data, a's TrustFile.
func (a *Agent) RootMarkers(data []byte) (markers []string, ok bool) {
	return a.RootMarkersIn(a.Parse(data))
}

// RunRootMarkers is RunRootMarkersIn of data, a's TrustFile.
func (a *Agent) RunRootMarkers(data []byte) (markers []string, ok bool) {
	return a.RunRootMarkersIn(a.Parse(data))
}

// ParseLayer is ParseLayerEnv in an environment that sets nothing.
func (a *Agent) ParseLayer(f SwitchFile, data []byte) (ParsedFile, error) {
	return a.ParseLayerEnv(f, data, nil)
}

// parseReply reads one run of a codec's hook: the contribution and the note.
func parseReply(c protocol.ReplyReader, declared string, r protocol.Reply) (*protocol.Contribution, string) {
	rd := c.ReadReply(declared, r)
	return rd.Contribution, rd.Note
}
