#!/bin/sh
cat > /work/main/got.json
