"""The cost table's CPU reading: a process's CPU time from /proc and its children."""

import os

from bench.capacity import request_cost


def test_request_cost_reads_a_processes_cpu_and_finds_its_children():
    parent, cpu = request_cost._stat(os.getpid())
    assert parent == os.getppid() and cpu > 0
    assert os.getpid() in request_cost.family(os.getppid())
    assert request_cost._stat(2 ** 22 + 12345) is None and request_cost.family(None) == set()
