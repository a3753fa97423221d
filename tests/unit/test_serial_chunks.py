"""A serial `prove` checks several specs' files in one coqchk run: the chunks keep a sweep's
points together, hold about SERIAL_BATCH specs, and keep the specs' order."""
from __future__ import annotations

from obligations.certify.run import SERIAL_BATCH, serial_chunks


def test_chunks_keep_sweeps_whole_and_the_order() -> None:
    groups = [["a"], ["b1", "b2", "b3"], *[[f"c{i}"] for i in range(SERIAL_BATCH)], ["d"]]
    chunks = serial_chunks(groups)
    assert [g for c in chunks for g in c] == groups                  # every group, in order, once
    assert all(sum(map(len, c[:-1])) < SERIAL_BATCH for c in chunks)  # a chunk closes at the batch size
    assert all(sum(map(len, c)) >= SERIAL_BATCH for c in chunks[:-1])
    assert len(chunks) == 2


def test_a_sweep_larger_than_a_batch_is_one_chunk() -> None:
    sweep = [f"k{i}" for i in range(3 * SERIAL_BATCH)]
    assert serial_chunks([sweep, ["x"]]) == [[sweep], [["x"]]]
    assert serial_chunks([]) == []
