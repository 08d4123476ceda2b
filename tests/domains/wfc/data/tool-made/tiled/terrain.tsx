<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="8" tileheight="8" tilecount="4" columns="2">
 <image source="terrain.png" width="16" height="16"/>
 <tile id="0" type="sea"/>
 <tile id="1" type="sand"/>
 <tile id="2" type="grass"/>
 <tile id="3" type="forest"/>
</tileset>
