package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
	"golang.org/x/net/http/httpproxy"
)

// requestTimeout bounds one exchange with the object store (retries
// included) but the wait for a lock, which -lock-timeout bounds.
const requestTimeout = 2 * time.Minute

// store is the bucket, through a configured S3 client: the object
// operations the backend needs, with the encryption, ACL and checksum
// settings of every write.
type store struct {
	cfg    *Config
	client *s3.Client
	table  *lockTable // dynamodb_table; nil without
}

// newStore builds the S3 client of c with the AWS SDK: credentials from
// the arguments, the shared files' profile or the SDK's default chain,
// assumed roles, endpoints and transport settings. Unless skipped, the
// credentials are checked with STS, as Terraform does.
func newStore(ctx context.Context, c *Config) (*store, error) {
	httpClient, err := c.httpClient()
	if err != nil {
		return nil, err
	}
	opts := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithRegion(c.Region),
		awsconfig.WithHTTPClient(httpClient),
		// The SDK's notes (responses without checksums...) are not the
		// user's business.
		awsconfig.WithLogger(logging.Nop{}),
		awsconfig.WithClientLogMode(0),
	}
	if c.Profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(c.Profile))
	}
	if len(c.SharedConfigFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedConfigFiles(expandHome(c.SharedConfigFiles)))
	}
	if len(c.SharedCredentialsFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles(expandHome(c.SharedCredentialsFiles)))
	}
	if c.AccessKey != "" || c.SecretKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(c.AccessKey, c.SecretKey, c.Token)))
	}
	if c.SkipMetadataAPICheck {
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if c.EC2MetadataServiceEndpoint != "" {
		opts = append(opts, awsconfig.WithEC2IMDSEndpoint(c.EC2MetadataServiceEndpoint))
	}
	switch strings.ToLower(c.EC2MetadataServiceEndpointMode) {
	case "ipv6":
		opts = append(opts, awsconfig.WithEC2IMDSEndpointMode(imds.EndpointModeStateIPv6))
	case "ipv4":
		opts = append(opts, awsconfig.WithEC2IMDSEndpointMode(imds.EndpointModeStateIPv4))
	}
	if c.MaxRetries > 0 {
		opts = append(opts, awsconfig.WithRetryMaxAttempts(c.MaxRetries))
	}
	if c.RetryMode != "" {
		opts = append(opts, awsconfig.WithRetryMode(aws.RetryMode(c.RetryMode)))
	}
	if c.UseFIPSEndpoint {
		opts = append(opts, awsconfig.WithUseFIPSEndpoint(aws.FIPSEndpointStateEnabled))
	}
	if c.UseDualStackEndpoint {
		opts = append(opts, awsconfig.WithUseDualStackEndpoint(aws.DualStackEndpointStateEnabled))
	}
	if c.SkipS3Checksum {
		opts = append(opts,
			awsconfig.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
			awsconfig.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = c.Region
	}
	stsClient := func(cfg aws.Config) *sts.Client {
		return sts.NewFromConfig(cfg, func(o *sts.Options) {
			if c.STSEndpoint != "" {
				o.BaseEndpoint = aws.String(c.STSEndpoint)
			}
			if c.STSRegion != "" {
				o.Region = c.STSRegion
			}
		})
	}
	if w := c.AssumeRoleWithWebIdentity; w != nil {
		var token stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(w.WebIdentityTokenFile)
		if w.WebIdentityToken != "" {
			token = staticToken(w.WebIdentityToken)
		}
		awsCfg.Credentials = aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(stsClient(awsCfg), w.RoleARN, token, func(o *stscreds.WebIdentityRoleOptions) {
			o.RoleSessionName = w.SessionName
			o.Duration = w.Duration
			o.Policy = optional(w.Policy)
			o.PolicyARNs = policyARNs(w.PolicyARNs)
		}))
	}
	if r := c.AssumeRole; r != nil {
		awsCfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(stsClient(awsCfg), r.RoleARN, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = r.SessionName
			o.Duration = r.Duration
			o.ExternalID = optional(r.ExternalID)
			o.Policy = optional(r.Policy)
			o.PolicyARNs = policyARNs(r.PolicyARNs)
			o.SourceIdentity = optional(r.SourceIdentity)
			o.TransitiveTagKeys = r.TransitiveTagKeys
			for k, v := range r.Tags {
				o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(k), Value: aws.String(v)})
			}
		}))
	}
	if _, err := awsCfg.Credentials.Retrieve(ctx); err != nil {
		return nil, fmt.Errorf("no valid credential sources found (set access_key and secret_key, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, or a role to assume): %w", err)
	}
	needAccount := !c.SkipRequestingAccountID && (len(c.AllowedAccountIDs) > 0 || len(c.ForbiddenAccountIDs) > 0)
	if !c.SkipCredentialsValidation || needAccount {
		out, err := stsClient(awsCfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			return nil, fmt.Errorf("validating provider credentials: retrieving caller identity from STS: %w", err)
		}
		if err := c.checkAccount(aws.ToString(out.Account)); err != nil {
			return nil, err
		}
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		o.UsePathStyle = c.UsePathStyle
		if c.S3Endpoint != "" {
			o.BaseEndpoint = aws.String(c.S3Endpoint)
		}
		o.Retryer = awsretry.AddWithErrorCodes(o.Retryer, "SlowDown")
	})
	// As Terraform lists the bucket on every command, check it now: a
	// missing bucket or refused credentials are reported before anything
	// else is done.
	if _, err := client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(c.Bucket)}); err != nil {
		if statusCode(err) == http.StatusNotFound || noSuchBucket(err) {
			return nil, fmt.Errorf("S3 bucket %q does not exist (create it first: the s3 backend does not create buckets)", c.Bucket)
		}
		return nil, fmt.Errorf("checking S3 bucket %q: %w", c.Bucket, err)
	}
	st := &store{cfg: c, client: client}
	if c.DynamoDBTable != "" {
		st.table = &lockTable{name: c.DynamoDBTable, client: dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
			if c.DynamoDBEndpoint != "" {
				o.BaseEndpoint = aws.String(c.DynamoDBEndpoint)
			}
		})}
	}
	return st, nil
}

// checkAccount applies allowed_account_ids and forbidden_account_ids.
func (c *Config) checkAccount(id string) error {
	for _, f := range c.ForbiddenAccountIDs {
		if f == id {
			return fmt.Errorf("AWS account ID not allowed: %s", id)
		}
	}
	if len(c.AllowedAccountIDs) == 0 {
		return nil
	}
	for _, a := range c.AllowedAccountIDs {
		if a == id {
			return nil
		}
	}
	return fmt.Errorf("AWS account ID not allowed: %s", id)
}

// httpClient is the transport settings: proxies, a CA bundle, insecure.
func (c *Config) httpClient() (*awshttp.BuildableClient, error) {
	var tlsCfg *tls.Config
	if c.CustomCABundle != "" || c.Insecure {
		tlsCfg = &tls.Config{InsecureSkipVerify: c.Insecure} //nolint:gosec // the insecure argument asks for it
	}
	b := awshttp.NewBuildableClient()
	if c.CustomCABundle != "" {
		pem, err := os.ReadFile(expandHome([]string{c.CustomCABundle})[0])
		if err != nil {
			return nil, fmt.Errorf("custom_ca_bundle: %w", err)
		}
		pool, err := systemPool()
		if err != nil {
			return nil, err
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("custom_ca_bundle %s holds no PEM certificate", c.CustomCABundle)
		}
		tlsCfg.RootCAs = pool
	}
	proxy := http.ProxyFromEnvironment
	if c.HTTPProxy != "" || c.HTTPSProxy != "" || c.NoProxy != "" {
		pc := httpproxy.Config{HTTPProxy: c.HTTPProxy, HTTPSProxy: c.HTTPSProxy, NoProxy: c.NoProxy}
		fn := pc.ProxyFunc()
		proxy = func(r *http.Request) (*url.URL, error) { return fn(r.URL) }
	}
	b = b.WithTransportOptions(func(t *http.Transport) {
		t.Proxy = proxy
		if tlsCfg != nil {
			t.TLSClientConfig = tlsCfg
		}
	})
	return b.WithTimeout(requestTimeout), nil
}

func systemPool() (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		return x509.NewCertPool(), nil
	}
	return pool, nil
}

type staticToken string

func (t staticToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

func policyARNs(arns []string) []ststypes.PolicyDescriptorType {
	var out []ststypes.PolicyDescriptorType
	for _, a := range arns {
		out = append(out, ststypes.PolicyDescriptorType{Arn: aws.String(a)})
	}
	return out
}

func expandHome(paths []string) []string {
	home, _ := os.UserHomeDir()
	out := make([]string, len(paths))
	for i, p := range paths {
		if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = home + p[1:]
		}
		out[i] = p
	}
	return out
}

// object is an object read from the bucket.
type object struct {
	data []byte
	etag string
}

// get reads the object at key; nil when there is none.
func (s *store) get(ctx context.Context, key string) (*object, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key)}
	if !s.cfg.SkipS3Checksum {
		in.ChecksumMode = s3types.ChecksumModeEnabled
	}
	if s.cfg.Encrypt || s.cfg.SSECustomerKey != "" {
		s.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	}
	out, err := s.client.GetObject(ctx, in)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, s.explain(err)
	}
	defer out.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(out.Body); err != nil {
		return nil, err
	}
	return &object{data: buf.Bytes(), etag: aws.ToString(out.ETag)}, nil
}

// condition is what a put requires of the object it replaces.
type condition struct {
	// absent: only if there is no object (If-None-Match: *).
	absent bool
	// etag: only if the object is still this one (If-Match).
	etag string
}

// put writes data at key under cond, with the configured encryption and
// ACL, as JSON. It returns the new object's ETag.
func (s *store) put(ctx context.Context, key string, data []byte, cond condition) (string, error) {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(s.cfg.Bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String("application/json"),
	}
	if !s.cfg.SkipS3Checksum {
		in.ChecksumAlgorithm = s3types.ChecksumAlgorithmSha256
	}
	if cond.absent {
		in.IfNoneMatch = aws.String("*")
	} else if cond.etag != "" {
		in.IfMatch = aws.String(cond.etag)
	}
	if s.cfg.Encrypt {
		switch {
		case s.cfg.KMSKeyID != "":
			in.ServerSideEncryption = s3types.ServerSideEncryptionAwsKms
			in.SSEKMSKeyId = aws.String(s.cfg.KMSKeyID)
		case s.cfg.SSECustomerKey != "":
		default:
			in.ServerSideEncryption = s3types.ServerSideEncryptionAes256
		}
	}
	if s.cfg.SSECustomerKey != "" {
		s.customerKey(&in.SSECustomerAlgorithm, &in.SSECustomerKey, &in.SSECustomerKeyMD5)
	}
	if s.cfg.ACL != "" {
		in.ACL = s3types.ObjectCannedACL(s.cfg.ACL)
	}
	out, err := s.client.PutObject(ctx, in)
	if err != nil {
		return "", s.explain(err)
	}
	return aws.ToString(out.ETag), nil
}

// customerKey sets the SSE-C parameters of a request, when a customer key
// is configured.
func (s *store) customerKey(alg, key, keyMD5 **string) {
	if s.cfg.SSECustomerKey == "" {
		return
	}
	raw, _ := base64.StdEncoding.DecodeString(s.cfg.SSECustomerKey) // checked by validate
	sum := md5.Sum(raw)
	*alg = aws.String("AES256")
	*key = aws.String(s.cfg.SSECustomerKey)
	*keyMD5 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
}

// remove deletes the object at key; a missing object is no error.
func (s *store) remove(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key)})
	if notFound(err) {
		return nil
	}
	return s.explain(err)
}

// list returns the keys of the objects whose key starts with prefix.
func (s *store) list(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, s.explain(err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// explain adds what the bucket's absence means to an error.
func (s *store) explain(err error) error {
	if noSuchBucket(err) {
		return fmt.Errorf("S3 bucket %q does not exist (create it first: the s3 backend does not create buckets): %w", s.cfg.Bucket, err)
	}
	return err
}

// notFound reports whether err says the object (or bucket) is not there.
func notFound(err error) bool {
	if err == nil {
		return false
	}
	var nsk *s3types.NoSuchKey
	if errors.As(err, &nsk) {
		return true
	}
	var nf *s3types.NotFound
	if errors.As(err, &nf) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "NoSuchKey" {
		return true
	}
	return statusCode(err) == http.StatusNotFound && !noSuchBucket(err)
}

// noSuchBucket reports whether err says the bucket does not exist.
func noSuchBucket(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "NoSuchBucket"
}

// preconditionFailed reports whether a conditional write was refused:
// the object exists (If-None-Match) or changed (If-Match), or another
// conditional write of it is in progress.
func preconditionFailed(err error) bool {
	var api smithy.APIError
	if errors.As(err, &api) && (api.ErrorCode() == "PreconditionFailed" || api.ErrorCode() == "ConditionalRequestConflict") {
		return true
	}
	code := statusCode(err)
	return code == http.StatusPreconditionFailed || code == http.StatusConflict
}

func statusCode(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}
