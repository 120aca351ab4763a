// Package s3test gives tests a bucket of their own on a real
// S3-compatible server: the one STRATA_TEST_S3_ENDPOINT names (.ci/run
// starts SeaweedFS's S3 gateway on loopback and sets it). Without it, the
// tests that need it are skipped with a message saying how to run them.
//
// It is a test helper: nothing but tests imports it.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// Environment variables naming the server to test against. The keys
// default to the ones .ci/s3-server configures.
const (
	EnvEndpoint  = "STRATA_TEST_S3_ENDPOINT"
	EnvAccessKey = "STRATA_TEST_S3_ACCESS_KEY"
	EnvSecretKey = "STRATA_TEST_S3_SECRET_KEY"
	// EnvDynamoDBEndpoint names a DynamoDB-compatible server (.ci/s3-server
	// starts dynalite) for the dynamodb_table tests.
	EnvDynamoDBEndpoint = "STRATA_TEST_DYNAMODB_ENDPOINT"
)

// Default credentials of the test server.
const (
	DefaultAccessKey = "strata-test"
	DefaultSecretKey = "strata-test-secret"
)

// Region is the region the tests configure (S3-compatible servers accept
// any).
const Region = "us-east-1"

const skipHelp = "no S3-compatible server for the s3 backend tests: set " + EnvEndpoint +
	"=http://127.0.0.1:PORT (and " + EnvAccessKey + "/" + EnvSecretKey + " unless they are " +
	DefaultAccessKey + "/" + DefaultSecretKey + "); `eval \"$(bash .ci/s3-server start /tmp/strata-s3)\"` builds SeaweedFS, starts its S3 gateway and prints them, " +
	"and bash .ci/run does it all"

// Server is an S3-compatible server, and a DynamoDB-compatible one when
// DynamoDBEndpoint is set.
type Server struct {
	Endpoint         string
	AccessKey        string
	SecretKey        string
	DynamoDBEndpoint string
}

// Get returns the server to test against, or skips t.
func Get(t testing.TB) *Server {
	t.Helper()
	ep := os.Getenv(EnvEndpoint)
	if ep == "" {
		t.Skip(skipHelp)
	}
	s := &Server{Endpoint: ep, AccessKey: os.Getenv(EnvAccessKey), SecretKey: os.Getenv(EnvSecretKey), DynamoDBEndpoint: os.Getenv(EnvDynamoDBEndpoint)}
	if s.AccessKey == "" {
		s.AccessKey, s.SecretKey = DefaultAccessKey, DefaultSecretKey
	}
	return s
}

// Env is the environment a strata or terraform process needs to reach
// the server with the backend block of Block: its credentials.
func (s *Server) Env() []string {
	return []string{"AWS_ACCESS_KEY_ID=" + s.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s.SecretKey, "AWS_EC2_METADATA_DISABLED=true"}
}

// Block is an s3 backend block for key in bucket on this server, as
// Terraform 1.11 accepts it too, plus extra arguments (one per line).
func (s *Server) Block(bucket, key, extra string) string {
	return fmt.Sprintf(`terraform {
  backend "s3" {
    bucket                      = %q
    key                         = %q
    region                      = %q
    use_lockfile                = true
    use_path_style              = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    endpoints = {
      s3 = %q
    }
%s  }
}
`, bucket, key, Region, s.Endpoint, extra)
}

// DynamoDBBlock is an s3 backend block locking with DynamoDB table (and
// the lock file too when lockfile is set).
func (s *Server) DynamoDBBlock(bucket, key, table string, lockfile bool) string {
	return fmt.Sprintf(`terraform {
  backend "s3" {
    bucket                      = %q
    key                         = %q
    region                      = %q
    dynamodb_table              = %q
    use_lockfile                = %v
    use_path_style              = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    endpoints = {
      s3       = %q
      dynamodb = %q
    }
  }
}
`, bucket, key, Region, table, lockfile, s.Endpoint, s.DynamoDBEndpoint)
}

// Client is an S3 client of the server, for tests to look at objects.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// NewBucket creates an empty bucket with a random name, emptied and
// removed when t ends.
func (s *Server) NewBucket(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "strata-test-" + hex.EncodeToString(b)
	c := s.Client()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3test: creating bucket %s at %s: %v", name, s.Endpoint, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		keys, _ := s.Keys(ctx, name)
		for _, k := range keys {
			_, _ = c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(name), Key: aws.String(k)})
		}
		if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)}); err != nil {
			t.Logf("s3test: removing bucket %s: %v", name, err)
		}
	})
	return name
}

// Keys lists the keys in bucket, sorted.
func (s *Server) Keys(ctx context.Context, bucket string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.Client(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// Object returns the object at key in bucket; ok is false when there is
// none.
func (s *Server) Object(t testing.TB, bucket, key string) (data []byte, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := s.Client().GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		var nsk *s3types.NoSuchKey
		if asNoSuchKey(err, &nsk) || strings.Contains(err.Error(), "StatusCode: 404") {
			return nil, false
		}
		t.Fatalf("s3test: reading s3://%s/%s: %v", bucket, key, err)
	}
	defer out.Body.Close()
	data, err = io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return data, true
}

// Put writes data at key in bucket.
func (s *Server) Put(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: strings.NewReader(string(data))}); err != nil {
		t.Fatalf("s3test: writing s3://%s/%s: %v", bucket, key, err)
	}
}

func asNoSuchKey(err error, target **s3types.NoSuchKey) bool {
	return errors.As(err, target)
}

// DynamoDB returns a DynamoDB client of the DynamoDB-compatible server,
// or skips t when there is none.
func (s *Server) DynamoDB(t testing.TB) *dynamodb.Client {
	t.Helper()
	if s.DynamoDBEndpoint == "" {
		t.Skip("no DynamoDB-compatible server for the dynamodb_table tests: set " + EnvDynamoDBEndpoint +
			"=http://127.0.0.1:PORT (`npx dynalite --port PORT`); .ci/s3-server start starts dynalite when npm is installed")
	}
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.DynamoDBEndpoint),
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// NewTable creates a lock table as Terraform's s3 backend wants it (hash
// key LockID, a string), removed when t ends; it skips t without a
// DynamoDB-compatible server.
func (s *Server) NewTable(t testing.TB) string {
	t.Helper()
	c := s.DynamoDB(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "strata-locks-" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []ddbtypes.AttributeDefinition{{AttributeName: aws.String("LockID"), AttributeType: ddbtypes.ScalarAttributeTypeS}},
		KeySchema:            []ddbtypes.KeySchemaElement{{AttributeName: aws.String("LockID"), KeyType: ddbtypes.KeyTypeHash}},
		BillingMode:          ddbtypes.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("s3test: creating table %s at %s: %v", name, s.DynamoDBEndpoint, err)
	}
	for i := 0; i < 100; i++ {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && out.Table.TableStatus == ddbtypes.TableStatusActive {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, _ = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	return name
}

// Item returns the string attribute attr of the item whose LockID is id;
// ok is false when there is no such item.
func (s *Server) Item(t testing.TB, table, id, attr string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := s.DynamoDB(t).GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(table),
		Key:            map[string]ddbtypes.AttributeValue{"LockID": &ddbtypes.AttributeValueMemberS{Value: id}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("s3test: reading item %q of %s: %v", id, table, err)
	}
	v, ok := out.Item[attr].(*ddbtypes.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return v.Value, true
}

// PutItem writes an item whose LockID is id, with the string attribute
// attr.
func (s *Server) PutItem(t testing.TB, table, id, attr, value string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := s.DynamoDB(t).PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(table),
		Item: map[string]ddbtypes.AttributeValue{
			"LockID": &ddbtypes.AttributeValueMemberS{Value: id},
			attr:     &ddbtypes.AttributeValueMemberS{Value: value},
		},
	})
	if err != nil {
		t.Fatalf("s3test: writing item %q of %s: %v", id, table, err)
	}
}
