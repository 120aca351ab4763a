// Package datadir locates the working directory's data directory, where
// init keeps installed providers and modules, the backend settings and
// the selected workspace: ".terraform", or the directory TF_DATA_DIR
// names, as in Terraform. It imports nothing of strata's.
package datadir

import (
	"os"
	"path/filepath"
)

// Default is the data directory's name when TF_DATA_DIR is not set.
const Default = ".terraform"

// Path is the data directory, relative to the working directory unless
// TF_DATA_DIR gives an absolute path.
func Path() string { return PathEnv(os.Getenv) }

// PathEnv is Path with TF_DATA_DIR read through getenv, for a command
// whose environment is not the process's.
func PathEnv(getenv func(string) string) string {
	if d := getenv("TF_DATA_DIR"); d != "" {
		return d
	}
	return Default
}

// Join is a path inside the data directory.
func Join(elem ...string) string {
	return filepath.Join(append([]string{Path()}, elem...)...)
}

// In is the data directory of the working directory dir.
func In(dir string, elem ...string) string { return InEnv(os.Getenv, dir, elem...) }

// InEnv is In with TF_DATA_DIR read through getenv.
func InEnv(getenv func(string) string, dir string, elem ...string) string {
	p := PathEnv(getenv)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Join(append([]string{p}, elem...)...)
}
