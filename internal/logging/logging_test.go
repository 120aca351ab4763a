package logging

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	tests := map[string]struct {
		env       map[string]string
		vars      []string
		wantInfo  bool
		wantDebug bool
		wantJSON  bool
	}{
		"unset":                  {vars: []string{"TF_LOG_CORE", "TF_LOG"}},
		"off":                    {env: map[string]string{"TF_LOG": "off"}, vars: []string{"TF_LOG"}},
		"info":                   {env: map[string]string{"TF_LOG": "INFO"}, vars: []string{"TF_LOG"}, wantInfo: true},
		"specific wins":          {env: map[string]string{"TF_LOG": "INFO", "TF_LOG_CORE": "DEBUG"}, vars: []string{"TF_LOG_CORE", "TF_LOG"}, wantInfo: true, wantDebug: true},
		"unknown level is trace": {env: map[string]string{"TF_LOG": "loud"}, vars: []string{"TF_LOG"}, wantInfo: true, wantDebug: true},
		"json":                   {env: map[string]string{"TF_LOG": "JSON"}, vars: []string{"TF_LOG"}, wantInfo: true, wantDebug: true, wantJSON: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			l, _ := New(func(k string) string { return tc.env[k] }, "core", &buf, tc.vars...)
			l.Info("hello")
			l.Debug("details")
			out := buf.String()
			if got := strings.Contains(out, "hello"); got != tc.wantInfo {
				t.Errorf("info logged %v, want %v: %q", got, tc.wantInfo, out)
			}
			if got := strings.Contains(out, "details"); got != tc.wantDebug {
				t.Errorf("debug logged %v, want %v: %q", got, tc.wantDebug, out)
			}
			if got := strings.HasPrefix(out, "{"); got != tc.wantJSON {
				t.Errorf("JSON %v, want %v: %q", got, tc.wantJSON, out)
			}
		})
	}
}

func TestNewLogPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.txt")
	env := map[string]string{"TF_LOG": "INFO", "TF_LOG_PATH": path}
	l, f := New(func(k string) string { return env[k] }, "core", nil, "TF_LOG")
	l.Info("to the file")
	if f == nil {
		t.Fatal("no file returned")
	}
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "to the file") {
		t.Fatalf("log file: %q, %v", data, err)
	}
}
