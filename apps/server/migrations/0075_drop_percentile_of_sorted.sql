-- percentile_of_sorted() (0070) served a summary that read block arrays; the summary reads
-- rollups since 0071 and takes the recent tier's percentiles in Node, so nothing calls it.
DROP FUNCTION percentile_of_sorted(integer[], double precision);
