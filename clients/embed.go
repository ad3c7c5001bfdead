package clients

import (
	"embed"
	"io/fs"
)

//go:embed python/hermes_hooks/*.py python/hermes_hooks/py.typed python/hermes_hooks/hermes_plugin/*.py python/hermes_hooks/hermes_plugin/plugin.yaml
//go:embed python/hermes_hooks/hermes_gateway/*.py python/hermes_hooks/hermes_gateway/HOOK.yaml
var python embed.FS

// HermesPackage is the hermes_hooks Python package (client, Hermes plugin
// and gateway bridge), as `hermes-hooks install hermes` copies it into a
// Hermes home.
func HermesPackage() fs.FS {
	sub, err := fs.Sub(python, "python")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}
