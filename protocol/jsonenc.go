package protocol

import "github.com/hermes-hooks/hermes-hooks/internal/pyjson"

// JSON as the hosts write it: the encoder and decoder are internal/pyjson's,
// shared with the allowlist file and the CLI's reports; the protocol keeps
// only the ordered object its payloads and wire shapes are built from.

// KV is one member of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// Object is a JSON object whose members keep their order. Payloads and the
// Hermes wire shape are built from Objects because their key order is part of
// the contract (Hermes hooks that print or diff their stdin see it).
type Object []KV

// Len and Member make an Object a pyjson.Ordered.
func (o Object) Len() int { return len(o) }

// Member returns the i-th member.
func (o Object) Member(i int) (string, any) { return o[i].Key, o[i].Value }

// MarshalJSON encodes o compactly, in order, without HTML escaping.
func (o Object) MarshalJSON() ([]byte, error) {
	return pyjson.Append(nil, o, pyjson.Compact), nil
}

// toValidUTF8 decodes hook output as Python's bytes.decode("utf-8",
// "replace") does.
func toValidUTF8(b []byte) string { return pyjson.DecodeReplace(b) }
