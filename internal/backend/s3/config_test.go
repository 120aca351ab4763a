package s3

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
)

func settings(vals map[string]cty.Value, env map[string]string) *backendbase.Settings {
	return &backendbase.Settings{Values: vals, Getenv: func(k string) string { return env[k] }}
}

var minimal = map[string]cty.Value{"bucket": cty.StringVal("b"), "key": cty.StringVal("k/state")}

func with(extra map[string]cty.Value) map[string]cty.Value {
	out := map[string]cty.Value{}
	for k, v := range minimal {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func TestParseConfigEnvironmentFallback(t *testing.T) {
	env := map[string]string{
		"AWS_DEFAULT_REGION":          "eu-west-1",
		"AWS_ACCESS_KEY_ID":           "AKID",
		"AWS_SECRET_ACCESS_KEY":       "SECRET",
		"AWS_PROFILE":                 "dev",
		"AWS_ENDPOINT_URL_S3":         "http://127.0.0.1:9000",
		"AWS_SHARED_CREDENTIALS_FILE": "/a:/b",
		"AWS_EC2_METADATA_DISABLED":   "true",
		"AWS_MAX_ATTEMPTS":            "4",
	}
	c, diags := ParseConfig(settings(with(map[string]cty.Value{"profile": cty.StringVal("from-block")}), env))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := []any{c.Region, c.AccessKey, c.SecretKey, c.Profile, c.S3Endpoint, c.SharedCredentialsFiles, c.SkipMetadataAPICheck, c.MaxRetries, c.WorkspaceKeyPrefix}
	want := []any{"eu-west-1", "AKID", "SECRET", "from-block", "http://127.0.0.1:9000", []string{"/a", "/b"}, true, 4, "env:"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got):\n%s", diff)
	}
	// AWS_REGION wins over AWS_DEFAULT_REGION, the block over both.
	env["AWS_REGION"] = "us-west-2"
	c, _ = ParseConfig(settings(minimal, env))
	if c.Region != "us-west-2" {
		t.Errorf("region %q", c.Region)
	}
	c, _ = ParseConfig(settings(with(map[string]cty.Value{"region": cty.StringVal("ap-south-1")}), env))
	if c.Region != "ap-south-1" {
		t.Errorf("region %q", c.Region)
	}
}

func TestParseConfigNestedAndDeprecated(t *testing.T) {
	vals := with(map[string]cty.Value{
		"region": cty.StringVal("us-east-1"),
		"endpoints": cty.ObjectVal(map[string]cty.Value{
			"s3": cty.StringVal("http://s3.local"), "sts": cty.NullVal(cty.String), "iam": cty.NullVal(cty.String),
			"sso": cty.NullVal(cty.String), "dynamodb": cty.NullVal(cty.String),
		}),
		"sts_endpoint":     cty.StringVal("http://sts.local"),
		"force_path_style": cty.True,
		"assume_role": cty.ObjectVal(map[string]cty.Value{
			"role_arn": cty.StringVal("arn:aws:iam::123456789012:role/r"), "duration": cty.StringVal("15m"),
			"external_id": cty.NullVal(cty.String), "policy": cty.NullVal(cty.String),
			"policy_arns": cty.SetVal([]cty.Value{cty.StringVal("arn:p")}), "session_name": cty.StringVal("s"),
			"source_identity": cty.NullVal(cty.String), "tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}),
			"transitive_tag_keys": cty.NullVal(cty.Set(cty.String)),
		}),
	})
	c, diags := ParseConfig(settings(vals, nil))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if c.S3Endpoint != "http://s3.local" || c.STSEndpoint != "http://sts.local" || !c.UsePathStyle {
		t.Errorf("endpoints %q %q, path style %v", c.S3Endpoint, c.STSEndpoint, c.UsePathStyle)
	}
	wantRole := &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/r", Duration: 15 * 60 * 1e9, PolicyARNs: []string{"arn:p"}, SessionName: "s", Tags: map[string]string{"a": "1"}}
	if diff := cmp.Diff(wantRole, c.AssumeRole); diff != "" {
		t.Errorf("assume_role (-want +got):\n%s", diff)
	}
	if len(diags) != 0 {
		t.Errorf("the deprecated arguments are accepted silently, as by Terraform 1.11: %v", diags)
	}
}

func TestParseConfigErrors(t *testing.T) {
	region := map[string]cty.Value{"region": cty.StringVal("us-east-1")}
	tests := map[string]struct {
		vals map[string]cty.Value
		env  map[string]string
		want string
	}{
		"no bucket":    {map[string]cty.Value{"key": cty.StringVal("k"), "region": cty.StringVal("us-east-1")}, nil, `The attribute "bucket" is required by the backend.`},
		"no key":       {map[string]cty.Value{"bucket": cty.StringVal("b"), "region": cty.StringVal("us-east-1")}, nil, `The attribute "key" is required by the backend.`},
		"no region":    {minimal, nil, `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`},
		"bad region":   {with(map[string]cty.Value{"region": cty.StringVal("mars-1")}), nil, "Invalid AWS Region: mars-1"},
		"key slash":    {with(map[string]cty.Value{"region": cty.StringVal("us-east-1"), "key": cty.StringVal("/k")}), nil, `The value must not start or end with "/"`},
		"prefix slash": {with(map[string]cty.Value{"region": cty.StringVal("us-east-1"), "workspace_key_prefix": cty.StringVal("x/")}), nil, `The value must not start or end with "/"`},
		"sse-c length": {with(map[string]cty.Value{"region": cty.StringVal("us-east-1"), "sse_customer_key": cty.StringVal("abc")}), nil, "sse_customer_key must be 44 characters in length"},
		"kms and sse-c": {with(map[string]cty.Value{"region": cty.StringVal("us-east-1"), "kms_key_id": cty.StringVal("k"),
			"sse_customer_key": cty.StringVal("MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=")}), nil, "Only one of kms_key_id, sse_customer_key can be set."},
		"retry mode": {with(map[string]cty.Value{"region": cty.StringVal("us-east-1"), "retry_mode": cty.StringVal("often")}), nil, `retry_mode must be "standard" or "adaptive", not "often".`},
		"bad env bool": {with(region), map[string]string{"AWS_USE_FIPS_ENDPOINT": "sometimes"},
			`The environment variable AWS_USE_FIPS_ENDPOINT must be true or false, not "sometimes".`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := ParseConfig(settings(tc.vals, tc.env))
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if !strings.Contains(diags.Error(), tc.want) {
				t.Errorf("error %q lacks %q", diags.Error(), tc.want)
			}
		})
	}
	// A valid region passes, and skip_region_validation lets any through.
	for _, r := range []string{"us-east-1", "us-gov-west-1", "cn-north-1", "ap-southeast-2", "eu-central-2"} {
		if _, diags := ParseConfig(settings(with(map[string]cty.Value{"region": cty.StringVal(r)}), nil)); diags.HasErrors() {
			t.Errorf("region %s: %v", r, diags)
		}
	}
	if _, diags := ParseConfig(settings(with(map[string]cty.Value{"region": cty.StringVal("garage"), "skip_region_validation": cty.True}), nil)); diags.HasErrors() {
		t.Errorf("skip_region_validation: %v", diags)
	}
}

func TestStateKeys(t *testing.T) {
	tests := map[string]struct {
		prefix string
		ws     string
		want   string
	}{
		"default":            {"env:", "default", "path/state"},
		"workspace":          {"env:", "blue", "env:/blue/path/state"},
		"custom prefix":      {"envs/x", "blue", "envs/x/blue/path/state"},
		"empty prefix":       {"", "blue", "blue/path/state"},
		"empty prefix, dflt": {"", "default", "path/state"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := &Config{Key: "path/state", WorkspaceKeyPrefix: tc.prefix}
			got := c.StateKey(tc.ws)
			if got != tc.want {
				t.Fatalf("key %q, want %q", got, tc.want)
			}
			ws, ok := c.workspaceOf(got)
			if tc.ws == "default" {
				if ok {
					t.Errorf("the default state's key reads as workspace %q", ws)
				}
				return
			}
			if !ok || ws != tc.ws {
				t.Errorf("workspaceOf(%q) = %q, %v", got, ws, ok)
			}
		})
	}
	c := &Config{Key: "path/state", WorkspaceKeyPrefix: "env:"}
	for _, k := range []string{"env:/blue/other/state", "env:/blue/path/state.tflock", "env://path/state", "path/state", "env:/a/b/path/state"} {
		if ws, ok := c.workspaceOf(k); ok {
			t.Errorf("%q reads as workspace %q", k, ws)
		}
	}
}
