package backend

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// TestS3BackendHashMatchesTerraform: the hashes Terraform 1.11.4 recorded
// in .terraform/terraform.tfstate for these s3 backend blocks, nested
// objects (endpoints, assume_role) and sets included.
func TestS3BackendHashMatchesTerraform(t *testing.T) {
	const common = `bucket = "b"
key    = "path/to/state.tfstate"
region = "us-east-1"
use_lockfile = true
use_path_style = true
skip_credentials_validation = true
skip_metadata_api_check = true
skip_region_validation = true
`
	tests := map[string]struct {
		body string
		want uint64
	}{
		"endpoints": {
			body: common + "skip_requesting_account_id = true\nendpoints = { s3 = \"http://127.0.0.1:39123\" }\n",
			want: 3208552988,
		},
		"assume roles and account ids": {
			body: common + `skip_requesting_account_id = false
assume_role = { role_arn = "arn:aws:iam::123456789012:role/x", policy_arns = ["arn:aws:iam::aws:policy/b","arn:aws:iam::aws:policy/a","arn:aws:iam::aws:policy/a"], tags = {x = "1"}, transitive_tag_keys = ["x","x"], duration = "1h" }
assume_role_with_web_identity = { role_arn = "arn:aws:iam::123456789012:role/y", web_identity_token = "tokentoken" }
allowed_account_ids = ["123456789012", "123456789012"]
endpoints = { s3 = "http://127.0.0.1:39123", sts = "http://127.0.0.1:39123" }
`,
			want: 3662477604,
		},
		"files and retries": {
			body: common + `skip_requesting_account_id = false
assume_role = { role_arn = "arn:aws:iam::123456789012:role/x", policy_arns = ["arn:aws:iam::aws:policy/b","arn:aws:iam::aws:policy/a","arn:aws:iam::aws:policy/a"], tags = {x = "1"}, transitive_tag_keys = ["x","x"], duration = "1h" }
assume_role_with_web_identity = { role_arn = "arn:aws:iam::123456789012:role/y", web_identity_token = "tokentoken" }
shared_config_files = ["/tmp/s3-learn/b", "/tmp/s3-learn/a", "/tmp/s3-learn/a"]
shared_credentials_files = ["/tmp/s3-learn/b", "/tmp/s3-learn/a", "/tmp/s3-learn/a"]
forbidden_account_ids = ["2","1","1"]
max_retries = 3
endpoints = { s3 = "http://127.0.0.1:39123", sts = "http://127.0.0.1:39123" }
`,
			want: 2338980699,
		},
	}
	s3, _ := Lookup("s3")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, diags := hclparse.NewParser().ParseHCL([]byte(tc.body), "backend.hcl")
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := Hash("s3", f.Body, s3.Schema); got != tc.want {
				t.Errorf("hash %d, want %d", got, tc.want)
			}
			c, diags := DecodeBlock("s3", f.Body, f.Body.MissingItemRange())
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if c.Hash != tc.want {
				t.Errorf("config hash %d, want %d", c.Hash, tc.want)
			}
			// What init records reads back as the same configuration.
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			if err := WriteSaved(path, c, "1.11.4"); err != nil {
				t.Fatal(err)
			}
			saved, diags := ReadSaved(path)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			back, err := saved.Configured()
			if err != nil {
				t.Fatal(err)
			}
			if !back.Value.RawEquals(c.Value) || back.Hash != tc.want {
				t.Errorf("recorded configuration reads back as %#v", back.Value)
			}
		})
	}
}

// TestS3SavedConfigFromTerraform: the configuration Terraform 1.11.4
// recorded for an s3 backend decodes, and strata records it alike.
func TestS3SavedConfigFromTerraform(t *testing.T) {
	recorded := `{"access_key":null,"acl":null,"allowed_account_ids":["123456789012"],"assume_role":{"duration":"1h","external_id":null,"policy":null,"policy_arns":["arn:aws:iam::aws:policy/a","arn:aws:iam::aws:policy/b"],"role_arn":"arn:aws:iam::123456789012:role/x","session_name":null,"source_identity":null,"tags":{"x":"1"},"transitive_tag_keys":["x"]},"assume_role_with_web_identity":null,"bucket":"b","custom_ca_bundle":null,"dynamodb_endpoint":null,"dynamodb_table":null,"ec2_metadata_service_endpoint":null,"ec2_metadata_service_endpoint_mode":null,"encrypt":null,"endpoint":null,"endpoints":{"dynamodb":null,"iam":null,"s3":"http://127.0.0.1:39123","sso":null,"sts":null},"forbidden_account_ids":null,"force_path_style":null,"http_proxy":null,"https_proxy":null,"iam_endpoint":null,"insecure":null,"key":"path/to/state.tfstate","kms_key_id":null,"max_retries":null,"no_proxy":null,"profile":null,"region":"us-east-1","retry_mode":null,"secret_key":null,"shared_config_files":null,"shared_credentials_file":null,"shared_credentials_files":null,"skip_credentials_validation":true,"skip_metadata_api_check":true,"skip_region_validation":true,"skip_requesting_account_id":true,"skip_s3_checksum":null,"sse_customer_key":null,"sts_endpoint":null,"sts_region":null,"token":null,"use_dualstack_endpoint":null,"use_fips_endpoint":null,"use_lockfile":true,"use_path_style":true,"workspace_key_prefix":null}`
	s := &Saved{Type: "s3", Config: json.RawMessage(recorded)}
	c, err := s.Configured()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ctyjson.Marshal(c.Value, c.Value.Type())
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != recorded {
		t.Errorf("recorded again as\n%s\nwant\n%s", again, recorded)
	}
	args := c.Args()
	if args["endpoints"].GetAttr("s3").AsString() != "http://127.0.0.1:39123" || args["assume_role"].GetAttr("policy_arns").LengthInt() != 2 {
		t.Errorf("args %#v", args)
	}
}
