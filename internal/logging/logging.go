// Package logging builds strata's loggers from Terraform's environment
// variables: TF_LOG for everything, TF_LOG_CORE for strata itself,
// TF_LOG_PROVIDER for provider plugins, and TF_LOG_PATH to append to a
// file instead of writing to stderr. It imports nothing of strata's.
package logging

import (
	"io"
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// New returns a logger named name whose level is the value of the first of
// levelVars that is set: off when none is, or for "off"; JSON lines at
// TRACE for "JSON"; TRACE for a level it does not know, as Terraform
// does. It writes to out, or, when out is nil, to the file TF_LOG_PATH
// names (appending) or stderr. The returned file, when not nil, is to be
// closed after the last message.
func New(getenv func(string) string, name string, out io.Writer, levelVars ...string) (hclog.Logger, *os.File) {
	level := ""
	for _, v := range levelVars {
		if level = getenv(v); level != "" {
			break
		}
	}
	if level == "" || strings.EqualFold(level, "off") {
		return hclog.New(&hclog.LoggerOptions{Name: name, Level: hclog.Off, Output: io.Discard}), nil
	}
	json := strings.EqualFold(level, "json")
	lvl := hclog.LevelFromString(level)
	if json || lvl == hclog.NoLevel {
		lvl = hclog.Trace
	}
	var file *os.File
	if out == nil {
		out = os.Stderr
		if path := getenv("TF_LOG_PATH"); path != "" {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
			if err == nil {
				out, file = f, f
			}
		}
	}
	return hclog.New(&hclog.LoggerOptions{Name: name, Level: lvl, Output: out, JSONFormat: json}), file
}
