package ingest

import (
	"context"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
)

// ObjectInputs lists the objects that the URL raw (a LOG argument: an
// s3://, gs://, azblob:// or https:// URL) names as Run lists them, in the
// order Run reads them, each as a URL that names it alone: Run of one of
// them reads that object under the name Run of raw gives it, so that the
// objects of a prefix can be read by separate processes. The objects of a
// prefix or glob that Run would not read (not a log by its name, dated
// outside opts.From and opts.To) are returned as skipped. The error says
// why nothing could be listed (Run of raw counts it as an input error).
func ObjectInputs(ctx context.Context, raw string, opts Options) ([]string, []SkippedFile, error) {
	store := &objstore.Store{HTTPClient: opts.HTTPClient}
	defer store.Close()
	objs, sk, err := store.Expand(ctx, raw, objstore.Period{From: opts.From, To: opts.To}, skipReason)
	if err != nil {
		return nil, nil, err
	}
	urls := make([]string, len(objs))
	for i := range objs {
		urls[i] = objs[i].URL()
	}
	var skipped []SkippedFile
	for _, s := range sk {
		skipped = append(skipped, SkippedFile{Name: s.Name, Reason: s.Reason})
	}
	return urls, skipped, nil
}
