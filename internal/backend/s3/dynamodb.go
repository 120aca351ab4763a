package s3

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Terraform's older locking keeps, in a DynamoDB table whose hash key is
// the string LockID, two items per state:
//
//	LockID "BUCKET/KEY"      Info: the lock info JSON, while locked
//	LockID "BUCKET/KEY-md5"  Digest: the hex MD5 of the state object
//
// The lock item is created only if none exists (a condition on the
// put). The digest is written after every write of the state, and a
// reader finding a state object whose MD5 is not the digest waits for the
// object to catch up (S3 used to be eventually consistent), then refuses
// it. strata maintains both, so that Terraform configured with the same
// table keeps reading what strata writes.

// digestWait is how long a read waits for the state object to match the
// digest before giving up.
const digestWait = 10 * time.Second

// lockTable is the DynamoDB table of dynamodb_table.
type lockTable struct {
	name   string
	client *dynamodb.Client
}

func (t *lockTable) key(id string) map[string]ddbtypes.AttributeValue {
	return map[string]ddbtypes.AttributeValue{"LockID": &ddbtypes.AttributeValueMemberS{Value: id}}
}

// lock creates the lock item of path holding info, unless it exists: then
// it returns the holder's lock info (nil when unreadable) and held.
func (t *lockTable) lock(ctx context.Context, path string, body []byte) (held *statemgr.LockInfo, isHeld bool, err error) {
	_, err = t.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(t.name),
		Item: map[string]ddbtypes.AttributeValue{
			"LockID": &ddbtypes.AttributeValueMemberS{Value: path},
			"Info":   &ddbtypes.AttributeValueMemberS{Value: string(body)},
		},
		ConditionExpression: aws.String("attribute_not_exists(LockID)"),
	})
	if err == nil {
		return nil, false, nil
	}
	var ccf *ddbtypes.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return nil, false, fmt.Errorf("s3 backend: taking the state lock in DynamoDB table %s: %w", t.name, err)
	}
	info, _ := t.info(ctx, path)
	return info, true, nil
}

// info reads the lock info of path's lock item; nil when there is none.
func (t *lockTable) info(ctx context.Context, path string) (*statemgr.LockInfo, error) {
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.name), Key: t.key(path), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	v, ok := out.Item["Info"].(*ddbtypes.AttributeValueMemberS)
	if !ok {
		return nil, nil
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal([]byte(v.Value), &info); err != nil {
		return nil, fmt.Errorf("the lock item %q of DynamoDB table %s cannot be read: %w", path, t.name, err)
	}
	return &info, nil
}

// unlock removes path's lock item, provided it holds lock id.
func (t *lockTable) unlock(ctx context.Context, path, id string) error {
	info, err := t.info(ctx, path)
	if err != nil {
		return err
	}
	if info == nil {
		return fmt.Errorf("the lock item %q of DynamoDB table %s is gone (was the lock forced open?)", path, t.name)
	}
	if info.ID != id {
		return fmt.Errorf("lock ID %q does not match the existing lock ID %q in DynamoDB table %s; it was left in place", id, info.ID, t.name)
	}
	_, err = t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(t.name), Key: t.key(path)})
	return err
}

// remove deletes an item.
func (t *lockTable) remove(ctx context.Context, id string) error {
	_, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(t.name), Key: t.key(id)})
	return err
}

// digest returns the digest recorded for path's state; "" when none.
func (t *lockTable) digest(ctx context.Context, path string) (string, error) {
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.name), Key: t.key(path + "-md5"), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return "", fmt.Errorf("reading the state digest from DynamoDB table %s: %w", t.name, err)
	}
	v, ok := out.Item["Digest"].(*ddbtypes.AttributeValueMemberS)
	if !ok {
		return "", nil
	}
	return v.Value, nil
}

// setDigest records the MD5 of data as path's state digest.
func (t *lockTable) setDigest(ctx context.Context, path string, data []byte) error {
	sum := md5.Sum(data)
	_, err := t.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(t.name),
		Item: map[string]ddbtypes.AttributeValue{
			"LockID": &ddbtypes.AttributeValueMemberS{Value: path + "-md5"},
			"Digest": &ddbtypes.AttributeValueMemberS{Value: hex.EncodeToString(sum[:])},
		},
	})
	if err != nil {
		return fmt.Errorf("recording the state digest in DynamoDB table %s: %w", t.name, err)
	}
	return nil
}

func md5Hex(data []byte) string {
	sum := md5.Sum(data)
	return hex.EncodeToString(sum[:])
}
