package agenthooks_test

// The tests load YAML configs through the dispatcher library, as a host
// does: with the engines installed (see dispatcher.Engines).
import _ "github.com/hermes-hooks/hermes-hooks/dispatcher/engines"
