package wayback

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// client makes the requests to the archive: at most a rate per second,
// retried on 429, 5xx and network errors.
type client struct {
	http      *http.Client
	limiter   *rate.Limiter
	retries   int           // retries after the first attempt
	backoff   time.Duration // the first wait without Retry-After; doubled each time
	maxWait   time.Duration // the longest wait; a longer Retry-After gives up
	userAgent string
	now       func() time.Time
	sleep     func(ctx context.Context, d time.Duration) error
	requests  atomic.Int64
}

// response is what get returns: the final status and up to limit+1 bytes
// of the body (more than limit means the body is longer).
type response struct {
	status int
	body   []byte
	header http.Header
}

// retryable reports whether an answer of status is worth asking again:
// the archive is busy (429) or failing (5xx).
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500 && status <= 599
}

// get fetches u, retrying as the package comment says. An error is a
// network error or a retryable status that outlived the retries, and names
// u.
func (c *client) get(ctx context.Context, u string, limit int64) (*response, error) {
	var last string
	for attempt := 0; ; attempt++ {
		if err := c.limiter.Wait(ctx); err != nil {
			return nil, err
		}
		r, retryAfter, err := c.once(ctx, u, limit)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			last = err.Error()
		case retryable(r.status):
			last = fmt.Sprintf("HTTP %d %s", r.status, http.StatusText(r.status))
		default:
			return r, nil
		}
		if attempt >= c.retries {
			return nil, fmt.Errorf("%s: %s, still after %d attempts: the archive is busy or down; try again later", u, last, attempt+1)
		}
		wait := c.backoff << attempt
		if retryAfter > 0 {
			wait = retryAfter
		}
		if wait > c.maxWait {
			if retryAfter > 0 {
				return nil, fmt.Errorf("%s: %s, and the archive asks to wait %s before asking again: try again later", u, last, retryAfter.Round(time.Second))
			}
			wait = c.maxWait
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// once makes one request; retryAfter is the wait a Retry-After header asks
// for (0 when none or unreadable).
func (c *client) once(ctx context.Context, u string, limit int64) (r *response, retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	c.requests.Add(1)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, unwrapURLError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, fmt.Errorf("reading the answer: %w", err)
	}
	return &response{status: resp.StatusCode, body: body, header: resp.Header},
		parseRetryAfter(resp.Header.Get("Retry-After"), c.now()), nil
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date
// (RFC 9110 §10.2.3). It returns 0 for none, a date in the past, or a value
// it cannot read.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 24*60*60)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// unwrapURLError drops the "Get \"URL\": " that net/http puts before a
// network error: the callers name the URL themselves.
func unwrapURLError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil && strings.HasPrefix(err.Error(), "Get ") {
			return inner
		}
	}
	return err
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
