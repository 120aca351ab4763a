package s3

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
)

// DefaultWorkspaceKeyPrefix is where the states of workspaces other than
// default are kept when workspace_key_prefix is not set:
// "env:/WORKSPACE/KEY".
const DefaultWorkspaceKeyPrefix = "env:"

// Config is the configuration of the s3 backend, from the block's
// arguments and the AWS_* environment variables.
type Config struct {
	// Bucket and Key name the default workspace's state object.
	Bucket string
	Key    string
	// Region is the bucket's region.
	Region string
	// WorkspaceKeyPrefix is the first part of the key of the other
	// workspaces' state objects.
	WorkspaceKeyPrefix string

	// Encrypt asks for server-side encryption: with KMSKeyID when set
	// (SSE-KMS), else with the customer key SSECustomerKey (SSE-C, base64
	// of 32 bytes), else SSE-S3.
	Encrypt        bool
	KMSKeyID       string
	SSECustomerKey string
	// ACL is a canned ACL given to the objects written.
	ACL string

	// UseLockfile locks with a <key>.tflock object written only if none
	// exists (a conditional If-None-Match put).
	UseLockfile bool
	// DynamoDBTable is Terraform's older locking: a lock item, and a
	// digest of the state, in a DynamoDB table whose hash key is LockID.
	DynamoDBTable string

	// Endpoints override the services' endpoints (MinIO, SeaweedFS...).
	S3Endpoint       string
	STSEndpoint      string
	DynamoDBEndpoint string
	// UsePathStyle addresses buckets as ENDPOINT/BUCKET/KEY rather than
	// BUCKET.ENDPOINT/KEY.
	UsePathStyle bool

	// Credentials: static keys, or a profile of the shared files, or the
	// SDK's default chain. AssumeRole and AssumeRoleWithWebIdentity are
	// then assumed.
	AccessKey                 string
	SecretKey                 string
	Token                     string
	Profile                   string
	SharedConfigFiles         []string
	SharedCredentialsFiles    []string
	AssumeRole                *AssumeRole
	AssumeRoleWithWebIdentity *AssumeRoleWithWebIdentity
	STSRegion                 string

	SkipCredentialsValidation bool
	SkipRegionValidation      bool
	SkipRequestingAccountID   bool
	SkipMetadataAPICheck      bool
	SkipS3Checksum            bool
	AllowedAccountIDs         []string
	ForbiddenAccountIDs       []string

	// MaxRetries is the number of attempts of a request (0: the SDK's
	// default); RetryMode is "standard" or "adaptive".
	MaxRetries int
	RetryMode  string

	CustomCABundle                 string
	Insecure                       bool
	HTTPProxy                      string
	HTTPSProxy                     string
	NoProxy                        string
	UseFIPSEndpoint                bool
	UseDualStackEndpoint           bool
	EC2MetadataServiceEndpoint     string
	EC2MetadataServiceEndpointMode string
}

// AssumeRole is the assume_role argument.
type AssumeRole struct {
	RoleARN           string
	Duration          time.Duration
	ExternalID        string
	Policy            string
	PolicyARNs        []string
	SessionName       string
	SourceIdentity    string
	Tags              map[string]string
	TransitiveTagKeys []string
}

// AssumeRoleWithWebIdentity is the assume_role_with_web_identity
// argument.
type AssumeRoleWithWebIdentity struct {
	RoleARN              string
	Duration             time.Duration
	Policy               string
	PolicyARNs           []string
	SessionName          string
	WebIdentityToken     string
	WebIdentityTokenFile string
}

var (
	stringSet = cty.Set(cty.String)
	// endpointsType is the endpoints argument's object.
	endpointsType = cty.Object(map[string]cty.Type{
		"dynamodb": cty.String, "iam": cty.String, "s3": cty.String, "sso": cty.String, "sts": cty.String,
	})
	assumeRoleType = cty.Object(map[string]cty.Type{
		"role_arn": cty.String, "duration": cty.String, "external_id": cty.String, "policy": cty.String,
		"policy_arns": stringSet, "session_name": cty.String, "source_identity": cty.String,
		"tags": cty.Map(cty.String), "transitive_tag_keys": stringSet,
	})
	webIdentityType = cty.Object(map[string]cty.Type{
		"role_arn": cty.String, "duration": cty.String, "policy": cty.String, "policy_arns": stringSet,
		"session_name": cty.String, "web_identity_token": cty.String, "web_identity_token_file": cty.String,
	})
)

// optionalAll makes every attribute of an object type optional, as the
// nested arguments of Terraform's schema are: a block sets only some.
func optionalAll(t cty.Type) cty.Type {
	var names []string
	for name := range t.AttributeTypes() {
		names = append(names, name)
	}
	sort.Strings(names)
	return cty.ObjectWithOptionalAttrs(t.AttributeTypes(), names)
}

// Info describes the s3 backend: the arguments of Terraform 1.11's s3
// backend, with its types, so that the configuration init records (and
// its hash) is Terraform's.
var Info = backendbase.Info{
	Name:     "s3",
	Required: []string{"bucket", "key"},
	Schema: backendbase.Schema{
		"bucket":                             cty.String,
		"key":                                cty.String,
		"region":                             cty.String,
		"workspace_key_prefix":               cty.String,
		"encrypt":                            cty.Bool,
		"kms_key_id":                         cty.String,
		"sse_customer_key":                   cty.String,
		"acl":                                cty.String,
		"use_lockfile":                       cty.Bool,
		"dynamodb_table":                     cty.String,
		"dynamodb_endpoint":                  cty.String,
		"endpoint":                           cty.String,
		"endpoints":                          optionalAll(endpointsType),
		"iam_endpoint":                       cty.String,
		"sts_endpoint":                       cty.String,
		"sts_region":                         cty.String,
		"use_path_style":                     cty.Bool,
		"force_path_style":                   cty.Bool,
		"access_key":                         cty.String,
		"secret_key":                         cty.String,
		"token":                              cty.String,
		"profile":                            cty.String,
		"shared_config_files":                stringSet,
		"shared_credentials_file":            cty.String,
		"shared_credentials_files":           stringSet,
		"assume_role":                        optionalAll(assumeRoleType),
		"assume_role_with_web_identity":      optionalAll(webIdentityType),
		"allowed_account_ids":                stringSet,
		"forbidden_account_ids":              stringSet,
		"skip_credentials_validation":        cty.Bool,
		"skip_region_validation":             cty.Bool,
		"skip_requesting_account_id":         cty.Bool,
		"skip_metadata_api_check":            cty.Bool,
		"skip_s3_checksum":                   cty.Bool,
		"max_retries":                        cty.Number,
		"retry_mode":                         cty.String,
		"custom_ca_bundle":                   cty.String,
		"insecure":                           cty.Bool,
		"http_proxy":                         cty.String,
		"https_proxy":                        cty.String,
		"no_proxy":                           cty.String,
		"use_fips_endpoint":                  cty.Bool,
		"use_dualstack_endpoint":             cty.Bool,
		"ec2_metadata_service_endpoint":      cty.String,
		"ec2_metadata_service_endpoint_mode": cty.String,
	},
}

// regionPattern is the shape of an AWS region name: partition prefix,
// area, number ("us-east-1", "us-gov-west-1", "cn-north-1").
var regionPattern = regexp.MustCompile(`^[a-z]{2}(-(gov|iso|isob|isoe|isof))?-[a-z]+(-[a-z]+)?-\d+$`)

// knownAreas are the first parts of the regions AWS has.
var knownAreas = map[string]bool{"af": true, "ap": true, "ca": true, "cn": true, "eu": true, "eusc": true, "il": true, "me": true, "mx": true, "sa": true, "us": true}

// ParseConfig reads the s3 backend's configuration from s: the arguments
// set, with the AWS_* environment variables (as Terraform reads them) for
// those left out. Warnings name deprecated arguments.
func ParseConfig(s *backendbase.Settings) (*Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	env := func(names ...string) string {
		for _, n := range names {
			if s.Getenv == nil {
				return ""
			}
			if v := s.Getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	str := func(name string, envs ...string) string {
		if v, ok := s.Values[name]; ok {
			return v.AsString()
		}
		return env(envs...)
	}
	boolean := func(name, envName string) bool { return s.Bool(name, envName, &diags) }
	bad := func(arg, summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: s.Range.Ptr()})
		_ = arg
	}
	// deprecated reports whether the deprecated argument old, replaced by
	// the second argument, is set. Terraform 1.11 accepts these without a
	// warning.
	deprecated := func(old, _ string) bool {
		_, ok := s.Values[old]
		return ok
	}
	nested := func(arg, attr string) string {
		v, ok := s.Values[arg]
		if !ok || v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute(attr) {
			return ""
		}
		a := v.GetAttr(attr)
		if a.IsNull() {
			return ""
		}
		return a.AsString()
	}

	c := &Config{
		Bucket:                         str("bucket"),
		Key:                            str("key"),
		Region:                         str("region", "AWS_REGION", "AWS_DEFAULT_REGION"),
		WorkspaceKeyPrefix:             DefaultWorkspaceKeyPrefix,
		Encrypt:                        boolean("encrypt", ""),
		KMSKeyID:                       str("kms_key_id"),
		SSECustomerKey:                 str("sse_customer_key", "AWS_SSE_CUSTOMER_KEY"),
		ACL:                            str("acl"),
		UseLockfile:                    boolean("use_lockfile", ""),
		DynamoDBTable:                  str("dynamodb_table"),
		UsePathStyle:                   boolean("use_path_style", ""),
		AccessKey:                      str("access_key", "AWS_ACCESS_KEY_ID"),
		SecretKey:                      str("secret_key", "AWS_SECRET_ACCESS_KEY"),
		Token:                          str("token", "AWS_SESSION_TOKEN"),
		Profile:                        str("profile", "AWS_PROFILE"),
		STSRegion:                      str("sts_region"),
		SkipCredentialsValidation:      boolean("skip_credentials_validation", ""),
		SkipRegionValidation:           boolean("skip_region_validation", ""),
		SkipRequestingAccountID:        boolean("skip_requesting_account_id", ""),
		SkipMetadataAPICheck:           boolean("skip_metadata_api_check", "AWS_EC2_METADATA_DISABLED"),
		SkipS3Checksum:                 boolean("skip_s3_checksum", ""),
		MaxRetries:                     s.Int("max_retries", "AWS_MAX_ATTEMPTS", 0, &diags),
		RetryMode:                      str("retry_mode", "AWS_RETRY_MODE"),
		CustomCABundle:                 str("custom_ca_bundle", "AWS_CA_BUNDLE"),
		Insecure:                       boolean("insecure", ""),
		HTTPProxy:                      str("http_proxy", "HTTP_PROXY", "http_proxy"),
		HTTPSProxy:                     str("https_proxy", "HTTPS_PROXY", "https_proxy"),
		NoProxy:                        str("no_proxy", "NO_PROXY", "no_proxy"),
		UseFIPSEndpoint:                boolean("use_fips_endpoint", "AWS_USE_FIPS_ENDPOINT"),
		UseDualStackEndpoint:           boolean("use_dualstack_endpoint", "AWS_USE_DUALSTACK_ENDPOINT"),
		EC2MetadataServiceEndpoint:     str("ec2_metadata_service_endpoint", "AWS_EC2_METADATA_SERVICE_ENDPOINT"),
		EC2MetadataServiceEndpointMode: str("ec2_metadata_service_endpoint_mode", "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"),
		SharedConfigFiles:              stringList(s.Values["shared_config_files"], env("AWS_CONFIG_FILE")),
		SharedCredentialsFiles:         stringList(s.Values["shared_credentials_files"], env("AWS_SHARED_CREDENTIALS_FILE")),
		AllowedAccountIDs:              stringList(s.Values["allowed_account_ids"], ""),
		ForbiddenAccountIDs:            stringList(s.Values["forbidden_account_ids"], ""),
	}
	if v, ok := s.Values["workspace_key_prefix"]; ok {
		c.WorkspaceKeyPrefix = v.AsString()
	}

	// Endpoints: endpoints { s3 sts }, then the deprecated arguments,
	// then the environment.
	c.S3Endpoint = nested("endpoints", "s3")
	if deprecated("endpoint", `"endpoints.s3"`) && c.S3Endpoint == "" {
		c.S3Endpoint = str("endpoint")
	}
	if c.S3Endpoint == "" {
		c.S3Endpoint = env("AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT")
	}
	c.STSEndpoint = nested("endpoints", "sts")
	if deprecated("sts_endpoint", `"endpoints.sts"`) && c.STSEndpoint == "" {
		c.STSEndpoint = str("sts_endpoint")
	}
	if c.STSEndpoint == "" {
		c.STSEndpoint = env("AWS_ENDPOINT_URL_STS", "AWS_STS_ENDPOINT")
	}
	c.DynamoDBEndpoint = nested("endpoints", "dynamodb")
	if deprecated("dynamodb_endpoint", `"endpoints.dynamodb"`) && c.DynamoDBEndpoint == "" {
		c.DynamoDBEndpoint = str("dynamodb_endpoint")
	}
	if c.DynamoDBEndpoint == "" {
		c.DynamoDBEndpoint = env("AWS_ENDPOINT_URL_DYNAMODB", "AWS_DYNAMODB_ENDPOINT")
	}
	deprecated("iam_endpoint", `"endpoints.iam"`)
	if deprecated("force_path_style", `"use_path_style"`) && !c.UsePathStyle {
		c.UsePathStyle = boolean("force_path_style", "")
	}
	if deprecated("shared_credentials_file", `"shared_credentials_files"`) && len(c.SharedCredentialsFiles) == 0 {
		c.SharedCredentialsFiles = []string{str("shared_credentials_file")}
	}
	if v, ok := s.Values["assume_role"]; ok && !v.IsNull() {
		c.AssumeRole = &AssumeRole{
			RoleARN:           nested("assume_role", "role_arn"),
			ExternalID:        nested("assume_role", "external_id"),
			Policy:            nested("assume_role", "policy"),
			SessionName:       nested("assume_role", "session_name"),
			SourceIdentity:    nested("assume_role", "source_identity"),
			PolicyARNs:        stringList(v.GetAttr("policy_arns"), ""),
			TransitiveTagKeys: stringList(v.GetAttr("transitive_tag_keys"), ""),
		}
		if tags := v.GetAttr("tags"); !tags.IsNull() {
			c.AssumeRole.Tags = map[string]string{}
			for k, t := range tags.AsValueMap() {
				c.AssumeRole.Tags[k] = t.AsString()
			}
		}
		c.AssumeRole.Duration = duration(nested("assume_role", "duration"), "assume_role.duration", bad)
		if c.AssumeRole.RoleARN == "" {
			bad("assume_role", "Missing Required Value", `The attribute "assume_role.role_arn" is required by the backend.`)
		}
	}
	if v, ok := s.Values["assume_role_with_web_identity"]; ok && !v.IsNull() {
		w := &AssumeRoleWithWebIdentity{
			RoleARN:              nested("assume_role_with_web_identity", "role_arn"),
			Policy:               nested("assume_role_with_web_identity", "policy"),
			SessionName:          nested("assume_role_with_web_identity", "session_name"),
			WebIdentityToken:     nested("assume_role_with_web_identity", "web_identity_token"),
			WebIdentityTokenFile: nested("assume_role_with_web_identity", "web_identity_token_file"),
			PolicyARNs:           stringList(v.GetAttr("policy_arns"), ""),
		}
		w.Duration = duration(nested("assume_role_with_web_identity", "duration"), "assume_role_with_web_identity.duration", bad)
		if w.RoleARN == "" {
			w.RoleARN = env("AWS_ROLE_ARN")
		}
		if w.SessionName == "" {
			w.SessionName = env("AWS_ROLE_SESSION_NAME")
		}
		if w.WebIdentityTokenFile == "" && w.WebIdentityToken == "" {
			w.WebIdentityTokenFile = env("AWS_WEB_IDENTITY_TOKEN_FILE")
		}
		c.AssumeRoleWithWebIdentity = w
	}
	if diags.HasErrors() {
		return nil, diags
	}
	diags = append(diags, c.validate(s)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return c, diags
}

// validate checks the configuration s gave as Terraform's s3 backend
// does, in its words.
func (c *Config) validate(s *backendbase.Settings) hcl.Diagnostics {
	var diags hcl.Diagnostics
	on := func(subject *hcl.Range, summary, detail string) {
		// terraform_remote_state reports them as they are too.
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject, Extra: backendbase.Invalid{}})
	}
	bad := func(summary, detail string) { on(s.Range.Ptr(), summary, detail) }
	for _, a := range [][2]string{{"bucket", c.Bucket}, {"key", c.Key}} {
		name, v := a[0], a[1]
		switch _, given := s.Values[name]; {
		case strings.TrimSpace(v) != "":
		case given:
			on(s.Subject(name), "Invalid Value", "The value cannot be empty or all whitespace")
		default:
			bad("Missing Required Value", fmt.Sprintf("The attribute %q is required by the backend.", name))
		}
	}
	for _, a := range [][2]string{{"key", c.Key}, {"workspace_key_prefix", c.WorkspaceKeyPrefix}} {
		if v := a[1]; strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") {
			on(s.Subject(a[0]), "Invalid Value", `The value must not start or end with "/"`)
		}
	}
	if c.Region == "" {
		bad("Missing region value", `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`)
	} else if !c.SkipRegionValidation && !validRegion(c.Region) {
		bad("Invalid region value", fmt.Sprintf("Invalid AWS Region: %s", c.Region))
	}
	if c.KMSKeyID != "" && c.SSECustomerKey != "" {
		bad("Invalid Attribute Combination", "Only one of kms_key_id, sse_customer_key can be set.")
	}
	if c.SSECustomerKey != "" {
		if len(c.SSECustomerKey) != 44 {
			bad("Invalid sse_customer_key value", "sse_customer_key must be 44 characters in length")
		} else if k, err := base64.StdEncoding.DecodeString(c.SSECustomerKey); err != nil || len(k) != 32 {
			bad("Invalid sse_customer_key value", "sse_customer_key must be the base64 encoding of 32 bytes")
		}
	}
	switch c.RetryMode {
	case "", "standard", "adaptive":
	default:
		bad("Invalid Value", fmt.Sprintf(`retry_mode must be "standard" or "adaptive", not %q.`, c.RetryMode))
	}
	return diags
}

func validRegion(r string) bool {
	if !regionPattern.MatchString(r) {
		return false
	}
	return knownAreas[r[:strings.Index(r, "-")]]
}

// duration parses an assume role duration ("1h", "15m").
func duration(s, name string, bad func(arg, summary, detail string)) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		bad(name, "Invalid Duration", fmt.Sprintf("The value of %q, %q, is not a duration such as \"1h\" or \"15m\".", name, s))
	}
	return d
}

// stringList returns the strings of a set or list argument, or else the
// environment variable's value split on the path list separator.
func stringList(v cty.Value, env string) []string {
	if v == cty.NilVal || v.IsNull() {
		if env == "" {
			return nil
		}
		return strings.Split(env, ":")
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if !e.IsNull() {
			out = append(out, e.AsString())
		}
	}
	return out
}
