"""Drives guardian-mcp with the official MCP Python SDK: lists the tools and calls each.

usage: mcp_client_check.py GUARDIAN_MCP_EXECUTABLE     (stdio: the executable inherits this
                                                         process's environment)
       mcp_client_check.py http://HOST:PORT/mcp        (Streamable HTTP, a server already running)
Prints one JSON object: {"tools": [...], "schemas": {...}, "calls": {name: {"isError": bool, "text": str}}}.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


async def main(target: str) -> None:
    if target.startswith("http"):
        async with streamablehttp_client(target) as (read, write, _):
            await exercise(read, write)
    else:
        params = StdioServerParameters(command=target, args=[], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            await exercise(read, write)


async def exercise(read, write) -> None:
    async with ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        result = {"tools": [t.name for t in listed.tools], "schemas": {t.name: t.inputSchema for t in listed.tools}, "calls": {}}
        calls = [
            ("send_restriction_command", {"text": "Block all games for 2 hours"}),
            ("get_device_status", {"child": "Sam"}),
            ("check_child_activity", {"child": "Sam"}),
            ("schedule_timed_restriction", {"type": "bedtime", "start": "21:00", "end": "07:00", "repeat": "weekdays"}),
            ("get_device_status", {"child": "Nobody"}),
        ]
        for index, (name, arguments) in enumerate(calls):
            answer = await session.call_tool(name, arguments)
            text = "".join(getattr(c, "text", "") for c in answer.content)
            result["calls"][f"{index}:{name}"] = {"isError": bool(answer.isError), "text": text}
        print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(main(sys.argv[1]), timeout=300))
