"""Records cross stage boundaries pickled in one binary column; the driver reads them from Arrow batches."""

from __future__ import annotations

import pyarrow as pa

from assay.runtime._stages import PAYLOAD, decode, decode_arrow, encode


def test_the_driver_reads_every_record_of_an_arrow_batch_sliced_or_in_chunks():
    records = [{"doc_id": f"d{i}", "rows": pa.table({"value": [float(i)] * i})} for i in range(7)]
    column = pa.array(list(encode(records)[PAYLOAD]), pa.binary())
    batch = pa.Table.from_arrays([pa.chunked_array([column[:3], column[3:3], column[3:]])], [PAYLOAD])
    decoded = decode_arrow(batch)
    assert [r["doc_id"] for r in decoded] == [f"d{i}" for i in range(7)]
    assert [r["rows"].num_rows for r in decoded] == list(range(7))
    sliced = decode_arrow(batch.slice(2, 3))  # a view whose chunks start at an offset into their buffers
    assert [r["doc_id"] for r in sliced] == ["d2", "d3", "d4"]
    large = pa.Table.from_arrays([column.cast(pa.large_binary())], [PAYLOAD])
    assert [r["doc_id"] for r in decode_arrow(large)] == [r["doc_id"] for r in decode(encode(records))]
