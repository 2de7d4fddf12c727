package interop

// Modules returns the interop folder after installing node_modules there
// when missing (npm ci), for packages that use what node-llama-cpp ships
// besides its engine (llamaserver builds llama-server from its llama.cpp
// sources).
func Modules() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return dir, ensureModules(dir)
}
