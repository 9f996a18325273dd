// Package fakes3 starts an S3 server on 127.0.0.1 for tests and
// benchmarks (github.com/johannesboyne/gofakes3), with objects in memory or
// served from a directory, and gives the s3:// URLs that gocloud.dev's
// s3blob opens against it. Tests never reach a real cloud.
package fakes3
