"""Row heights for a sharded input with Spark: `galley heights` as the map step.

    spark-submit Examples/spark/heights_job.py INPUT OUTPUT [galley arguments...]

INPUT is a file or folder of JSON Lines items (Spark reads a folder's files as one input, split
into partitions); OUTPUT a folder Spark creates, of part files whose concatenation, in order, is
the JSON Lines `galley heights` writes for the whole input. `galley` is a deterministic streaming
filter that keeps its input's order, so each partition is piped through it as it stands
(RDD.pipe) and no shuffle is needed. The executable is taken from $GALLEY (default: `galley` on
the PATH) and must exist on every worker, with its fonts (scripts/install.sh).
"""
import os
import shlex
import sys

from pyspark.sql import SparkSession


def main(arguments):
    if len(arguments) < 2:
        sys.exit(__doc__)
    source, target, options = arguments[0], arguments[1], arguments[2:]
    galley = os.environ.get("GALLEY", "galley")
    command = " ".join(shlex.quote(part) for part in [galley, "heights", "--quiet", *options])
    spark = SparkSession.builder.appName("galley heights").getOrCreate()
    # A local folder's files in name order (its listing has none); other file systems list in order.
    if os.path.isdir(source):
        source = ",".join(os.path.join(source, name) for name in sorted(os.listdir(source)))
    lines = spark.sparkContext.textFile(source)
    # Each partition's lines go to one galley process's standard input, its output lines come
    # back in the same order; a bad item is reported on the executor's standard error.
    lines.pipe(command).saveAsTextFile(target)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
