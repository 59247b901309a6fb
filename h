{
 "format": "workbench-greedtok",
 "version": 1,
 "max_token_length": 2,
 "tokens": [
  "6162"
 ],
 "gains": null,
 "stats": {}
}