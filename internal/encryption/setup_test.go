package encryption

import (
	"testing"
)

func TestSetup(t *testing.T) {
	t.Parallel()
	const stateOnly = `
key_provider "pbkdf2" "k" {
  passphrase = "a passphrase that is long enough"
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }
`
	const planToo = `
key_provider "pbkdf2" "k" {
  passphrase = "a passphrase that is long enough"
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
plan { method = method.aes_gcm.m }
`
	block, diags := DecodeEnv(stateOnly)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tests := map[string]struct {
		cfg                  *Config
		env                  string
		wantNil, wantErr     bool
		wantState, wantPlans bool
	}{
		"nothing":               {wantNil: true},
		"blank environment":     {env: "  \n", wantNil: true},
		"block only":            {cfg: block, wantState: true},
		"environment only":      {env: planToo, wantPlans: true},
		"environment merged in": {cfg: block, env: planToo, wantState: true, wantPlans: true},
		"invalid environment":   {cfg: block, env: `state {`, wantNil: true, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			enc, diags := Setup(tc.cfg, nil, tc.env)
			if diags.HasErrors() != tc.wantErr {
				t.Fatalf("errors: %v, want %v: %s", diags.HasErrors(), tc.wantErr, diags)
			}
			if (enc == nil) != tc.wantNil {
				t.Fatalf("nil encryption: %v, want %v", enc == nil, tc.wantNil)
			}
			if got := enc.State().Encrypts(); got != tc.wantState {
				t.Errorf("state encrypted: %v, want %v", got, tc.wantState)
			}
			if got := enc.Plan().Encrypts(); got != tc.wantPlans {
				t.Errorf("plans encrypted: %v, want %v", got, tc.wantPlans)
			}
		})
	}
}
