package objstore

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/gcp"
)

// openBucket opens the bucket of u (scheme, host and query only) with
// gocloud's URL opener for its scheme.
//
// Two settings differ from gocloud's defaults, neither changing what a
// query parameter means. S3's response checksums are validated only when
// an operation requires it, unless the URL says otherwise
// (response_checksum_validation): log objects delivered by CloudFront or
// ALB carry none, and the SDK would print a warning for each on the
// terminal; the audit checks a gzip or zstd object's own checksums. And
// gs:// finds its credentials here rather than in gcsblob's default
// opener, which prints a warning on standard output (where --json
// writes) and goes on without credentials when none are found.
func openBucket(ctx context.Context, u *url.URL) (*blob.Bucket, error) {
	if q := u.Query(); u.Scheme == "s3" && !q.Has("response_checksum_validation") {
		q.Set("response_checksum_validation", "when_required")
		v := *u
		v.RawQuery = q.Encode()
		u = &v
	}
	b, err := openBucketURL(ctx, u)
	if err != nil {
		// gocloud quotes the URL it was given, query included.
		return nil, &cleanError{msg: strings.ReplaceAll(err.Error(), u.String(), u.Scheme+"://"+u.Host), err: err}
	}
	return b, nil
}

func openBucketURL(ctx context.Context, u *url.URL) (*blob.Bucket, error) {
	switch u.Scheme {
	case "gs":
		return openGCS(ctx, u)
	}
	return blob.DefaultURLMux().OpenBucketURL(ctx, u)
}

// openGCS opens a gs:// bucket with the credentials of Google's standard
// chain (GOOGLE_APPLICATION_CREDENTIALS, the gcloud CLI's application
// default credentials, the metadata server on Google Cloud), or none with
// anonymous=true.
func openGCS(ctx context.Context, u *url.URL) (*blob.Bucket, error) {
	if os.Getenv("STORAGE_EMULATOR_HOST") != "" || os.Getenv("STORAGE_EMULATOR_HOST_GRPC") != "" {
		return blob.DefaultURLMux().OpenBucketURL(ctx, u) // an emulator needs no credentials
	}
	if anon, _ := strconv.ParseBool(u.Query().Get("anonymous")); anon {
		opener := &gcsblob.URLOpener{Client: gcp.NewAnonymousHTTPClient(gcp.DefaultTransport())}
		return opener.OpenBucketURL(ctx, u)
	}
	creds, err := gcp.DefaultCredentials(ctx)
	if err != nil {
		return nil, fmt.Errorf("no Google Cloud credentials found (set GOOGLE_APPLICATION_CREDENTIALS to a service account key file, run gcloud auth application-default login, or add anonymous=true for a public bucket): %w", err)
	}
	client, err := gcp.NewHTTPClient(gcp.DefaultTransport(), gcp.CredentialsTokenSource(creds))
	if err != nil {
		return nil, err
	}
	opener := &gcsblob.URLOpener{Client: client, TokenSource: gcp.CredentialsTokenSource(creds)}
	return opener.OpenBucketURL(ctx, u)
}
