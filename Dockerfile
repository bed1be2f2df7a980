# Pitchside: one image, every process (the command picks the role).
#   docker build -t pitchside .
#   docker compose up
FROM swift:6.0-bookworm AS build
WORKDIR /src
COPY . .
RUN ops/setup && swift build -c release --product pitchside

FROM debian:bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libzmq5 libavdevice59 libavformat59 libavcodec59 libswscale6 libavutil57 libx264-164 libcairo2 libfftw3-double3 \
      libsqlite3-0 python3-pip ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/pitchside /usr/local/bin/pitchside
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
COPY --from=build /src/ops /opt/pitchside/ops
ENV PITCHSIDE_CACHE=/var/cache/pitchside
RUN /opt/pitchside/ops/fetch-models || true
ENTRYPOINT ["pitchside"]
