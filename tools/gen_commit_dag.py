#!/usr/bin/env python3
"""Writes a commit-history-like DAG as an edge list "commit parent", newest commit first
(the order of `git log --format='%H %P'`): a first-parent main line; topic branches
forked a little behind its tip, a few commits long, merged back by merge commits; some
topic branches take a back-merge of the main line; a few long-lived release branches
that receive commits and are merged back now and then.

    tools/gen_commit_dag.py COMMITS [SEED] > history.txt
"""
import random
import sys


def generate(n, seed):
    rng = random.Random(seed)
    parents = []  # parents[c] = list of parent ids (older commits)
    main = []     # the main line's commits, oldest first

    def commit(ps):
        parents.append(ps)
        return len(parents) - 1

    main.append(commit([]))
    releases = []  # tips of long-lived branches
    while len(parents) < n:
        r = rng.random()
        if r < 0.45:  # a plain commit on the main line
            main.append(commit([main[-1]]))
        elif r < 0.95:  # a topic branch and its merge
            back = min(len(main) - 1, int(rng.expovariate(1 / 30)))
            tip = main[-1 - back]
            for i in range(1 + int(rng.expovariate(1 / 4))):
                if i > 0 and rng.random() < 0.05:  # back-merge of the main line
                    tip = commit([tip, main[-1]])
                else:
                    tip = commit([tip])
            main.append(commit([main[-1], tip]))
        elif r < 0.98 or not releases:  # a release branch commit (or a new branch)
            if not releases or rng.random() < 0.02:
                releases.append(main[-1])
            k = rng.randrange(len(releases))
            releases[k] = commit([releases[k]])
        else:  # a release branch merged back into the main line
            k = rng.randrange(len(releases))
            main.append(commit([main[-1], releases[k]]))
    return parents[:n]


def main():
    n = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    parents = generate(n, seed)
    out = sys.stdout
    lines = []
    for c in range(len(parents) - 1, -1, -1):
        ps = [p for p in parents[c] if p < n]
        if not ps:
            continue
        for p in ps:
            lines.append(f"{c} {p}\n")
        if len(lines) > 100000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


if __name__ == "__main__":
    main()
