// Package objstore finds and opens access logs kept in object storage:
// s3://, gs:// and azblob:// URLs in the URL syntax of gocloud.dev/blob
// (their query parameters passed to its URL openers as they are), and
// https:// (or http://) URLs of single objects.
//
// A URL whose key ends in "/" (or has no key) names every object under that
// prefix; a "*" or "[" in the last segment of the key makes it a glob,
// matched with path.Match against the last segment of each key in that
// "directory" (a "?" starts the URL's query: write it %3F); any other URL
// names one object. When a period is given,
// objects whose key carries a date (CloudFront, ALB, Cloudflare Logpush
// naming; see KeyTime) and lies outside the period by more than a day are
// listed as skipped, not read.
//
// Objects are streamed: Open returns the body of a GET as it arrives,
// never a copy on disk. Credentials come from each cloud's standard chain,
// as gocloud's URL openers find them (environment, shared profile,
// instance role); they are never part of a name or an error. An object is
// named by its URL without query and user information (Name), and every
// error of this package is stripped of the URL's query values.
package objstore
