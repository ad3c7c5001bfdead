package hookconfig

// SystemManagedPath is where an administrator deploys the managed config.
func SystemManagedPath() string {
	return "/Library/Application Support/hermes-hooks/config.yaml"
}
