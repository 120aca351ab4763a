package plugin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

func writeScript(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts as fake plugins need a Unix shell")
	}
	path := filepath.Join(t.TempDir(), "terraform-provider-fake_v1.0.0")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewClientErrors(t *testing.T) {
	t.Run("missing binary", func(t *testing.T) {
		_, err := NewClient(filepath.Join(t.TempDir(), "terraform-provider-none_v1.0.0"))
		if err == nil || !strings.Contains(err.Error(), "terraform-provider-none_v1.0.0") {
			t.Errorf("got %v, want an error naming the binary", err)
		}
	})
	t.Run("not a plugin", func(t *testing.T) {
		path := writeScript(t, "echo 'this is not a plugin' >&2\nexit 1")
		_, err := NewClient(path)
		if err == nil || !strings.Contains(err.Error(), "failed to start provider plugin terraform-provider-fake_v1.0.0") {
			t.Fatalf("got %v", err)
		}
		if !strings.Contains(err.Error(), "this is not a plugin") {
			t.Errorf("error does not show the plugin's output: %v", err)
		}
	})
	t.Run("handshake timeout", func(t *testing.T) {
		path := writeScript(t, "exec sleep 60")
		began := time.Now()
		_, err := NewClient(path, WithStartTimeout(300*time.Millisecond))
		if err == nil || !strings.Contains(err.Error(), "timeout") {
			t.Fatalf("got %v, want a timeout", err)
		}
		if d := time.Since(began); d > 10*time.Second {
			t.Errorf("took %s", d)
		}
		for _, kid := range childProcesses() {
			if strings.Contains(kid, "sleep") {
				t.Errorf("the plugin that never started is still running: %s", kid)
			}
		}
	})
	t.Run("bad handshake", func(t *testing.T) {
		path := writeScript(t, "echo '1|6|tcp|127.0.0.1:1|netrpc'\nexec sleep 60")
		_, err := NewClient(path, WithStartTimeout(5*time.Second))
		if err == nil {
			t.Fatal("a plugin offering only net/rpc: want an error")
		}
		for _, kid := range childProcesses() {
			if strings.Contains(kid, "sleep") {
				t.Errorf("the rejected plugin is still running: %s", kid)
			}
		}
	})
}

func TestDefaultLogger(t *testing.T) {
	tests := []struct {
		env       map[string]string
		wantLevel hclog.Level
		wantJSON  bool
	}{
		{map[string]string{}, hclog.Off, false},
		{map[string]string{"TF_LOG": "off"}, hclog.Off, false},
		{map[string]string{"TF_LOG": "DEBUG"}, hclog.Debug, false},
		{map[string]string{"TF_LOG": "warn"}, hclog.Warn, false},
		{map[string]string{"TF_LOG": "nonsense"}, hclog.Trace, false},
		{map[string]string{"TF_LOG": "JSON"}, hclog.Trace, true},
		{map[string]string{"TF_LOG": "ERROR", "TF_LOG_PROVIDER": "INFO"}, hclog.Info, false},
		{map[string]string{"TF_LOG_PROVIDER": "trace"}, hclog.Trace, false},
	}
	for _, tt := range tests {
		var buf syncBuffer
		logger, file := defaultLogger(options{getenv: func(k string) string { return tt.env[k] }, logOutput: &buf})
		if file != nil {
			t.Errorf("%v: opened a log file", tt.env)
		}
		if got := logger.GetLevel(); got != tt.wantLevel {
			t.Errorf("%v: level %s, want %s", tt.env, got, tt.wantLevel)
		}
		logger.Error("hello")
		out := buf.String()
		if tt.wantLevel == hclog.Off {
			if out != "" {
				t.Errorf("%v: logged %q", tt.env, out)
			}
			continue
		}
		if isJSON := strings.HasPrefix(out, "{"); isJSON != tt.wantJSON {
			t.Errorf("%v: output %q, JSON %v", tt.env, out, tt.wantJSON)
		}
	}

	logPath := filepath.Join(t.TempDir(), "tf.log")
	env := map[string]string{"TF_LOG": "INFO", "TF_LOG_PATH": logPath}
	logger, file := defaultLogger(options{getenv: func(k string) string { return env[k] }})
	if file == nil {
		t.Fatal("TF_LOG_PATH: no log file opened")
	}
	logger.Info("to the file")
	_ = file.Close()
	if b, _ := os.ReadFile(logPath); !strings.Contains(string(b), "to the file") {
		t.Errorf("log file holds %q", b)
	}
}

func TestCleanupClients(t *testing.T) {
	// CleanupClients ends every process still open. It may run only once
	// per process, so it runs in a child test binary.
	if os.Getenv("STRATA_PLUGIN_CLEANUP_CHILD") == "1" {
		p := start(t, "stratafw")
		pid := p.Pid()
		CleanupClients()
		CleanupClients() // harmless
		if processAlive(pid) {
			t.Fatalf("plugin process %d survived CleanupClients", pid)
		}
		return
	}
	testProvider(t, "stratafw") // build here, where the build is shared
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestCleanupClients$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STRATA_PLUGIN_CLEANUP_CHILD=1", "STRATA_PLUGIN_BUILD_DIR="+buildDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child test: %v\n%s", err, out)
	}
}

func TestCrashOutput(t *testing.T) {
	logLine := `{"@level":"debug","@message":"plugin address","address":"/tmp/plugin1"}`
	tests := []struct{ in, want string }{
		{"", ""},
		{logLine + "\n", ""},
		{logLine + "\npanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", "panic: boom\n\ngoroutine 1 [running]:\nmain.main()"},
		{logLine + "\nfatal error: out of memory\n", "fatal error: out of memory"},
		{logLine + "\nplain words\n" + logLine + "\nmore words\n", "plain words\nmore words"},
	}
	for _, tt := range tests {
		if got := crashOutput(tt.in); got != tt.want {
			t.Errorf("crashOutput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
