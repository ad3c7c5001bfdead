// Package tlsroots is the one place that says which certificate
// authorities an outgoing https request of hermes-hooks trusts (an http
// hook, an opa: entry, OTLP export): the system's store, never one the
// environment names, since a repository can set the environment of the
// hooks an agent runs. A leaf: it imports nothing of this module.
package tlsroots
