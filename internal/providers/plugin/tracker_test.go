package plugin

import (
	"strings"
	"testing"
)

func TestTracker(t *testing.T) {
	// A run's Tracker ends the processes of that run only; another
	// run's go on.
	t.Parallel()
	mine, other := NewTracker(), NewTracker()
	a := start(t, "stratafw", WithTracker(mine))
	b := start(t, "stratafw", WithTracker(other))
	mine.Close()
	mine.Close() // harmless
	if processAlive(a.Pid()) {
		t.Errorf("plugin process %d survived its tracker's Close", a.Pid())
	}
	if !processAlive(b.Pid()) {
		t.Errorf("plugin process %d of another tracker was ended", b.Pid())
	}
	// A client started after Close does not outlive the run.
	c := start(t, "stratafw", WithTracker(mine))
	if processAlive(c.Pid()) {
		t.Errorf("plugin process %d started after Close is running", c.Pid())
	}
	other.Close()
	if processAlive(b.Pid()) {
		t.Errorf("plugin process %d survived its tracker's Close", b.Pid())
	}
	var nilTracker *Tracker
	nilTracker.Close()
}

func TestPluginCommandEnviron(t *testing.T) {
	t.Parallel()
	getenv := func(string) string { return "" }
	cmd := pluginCommand("/bin/true", getenv, []string{"A=1", "TF_LOG_SDK=debug"}, "/tmp")
	env := strings.Join(cmd.Env, "\n")
	for _, want := range []string{"A=1", "TF_LOG_SDK=debug", "TF_LOG_PROVIDER=off"} {
		if !strings.Contains(env, want) {
			t.Errorf("environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(env, "TF_LOG_SDK=off") {
		t.Errorf("a variable the user set was overridden:\n%s", env)
	}
	if cmd.Dir != "/tmp" {
		t.Errorf("Dir = %q", cmd.Dir)
	}
}
